// Draws the report from the ranges in the JSON block: the calendar map, the diff's ranges and the rows,
// and makes the filters work. The page carries ranges, never a cell per date, so that a night of a
// million rows stays small: a range is one element spanning its dates on a CSS grid whose background
// draws the date cells. Outside text only ever goes in through textContent and attributes, never as HTML.
(function () {
  "use strict";
  var began = performance.now();
  var data = JSON.parse(document.getElementById("data").textContent);
  var DAY = 86400000;
  var origin = Date.parse(data.start + "T00:00:00Z");
  var MOST_ROWS = 2000; // rows of a table drawn at once: the filters narrow the rest
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                "October", "November", "December"];

  function date(offset) { return new Date(origin + offset * DAY); }
  var isoDays = [];
  function iso(offset) {
    return isoDays[offset] || (isoDays[offset] = date(offset).toISOString().slice(0, 10));
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function keyName(key) { return key[2] ? key[1] + " / " + key[2] : key[1]; }

  // Keys grouped by property, rooms and rates sorted within it: one block per property.
  var byProperty = {};
  data.keys.forEach(function (key, index) {
    (byProperty[key[0]] = byProperty[key[0]] || []).push(index);
  });
  var properties = Object.keys(byProperty).sort();
  var rangesOf = data.keys.map(function () { return []; });
  data.ranges.forEach(function (range) { rangesOf[range[0]].push(range); });

  function header() {
    var months = el("div", "line head");
    var days = el("div", "line head");
    months.appendChild(el("span", "label"));
    days.appendChild(el("span", "label"));
    var monthTrack = el("div", "track"), dayTrack = el("div", "track");
    for (var day = 0; day < data.days;) {
      var d = date(day);
      var length = Math.min(data.days - day,
        new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)) / DAY - (origin / DAY + day));
      var month = el("span", "month", MONTHS[d.getUTCMonth()] + " " + d.getUTCFullYear());
      month.style.gridColumn = (day + 1) + " / span " + length;
      monthTrack.appendChild(month);
      day += length;
    }
    for (day = 0; day < data.days; day++) {
      var cell = el("span", "day", String(date(day).getUTCDate()));
      cell.style.gridColumn = String(day + 1);
      dayTrack.appendChild(cell);
    }
    months.appendChild(monthTrack);
    days.appendChild(dayTrack);
    var weekends = el("div", "weekends");
    for (day = 0; day < data.days; day++) {
      var weekday = date(day).getUTCDay();
      if (weekday === 0 || weekday === 6) weekends.appendChild(el("span")).style.gridColumn = String(day + 1);
    }
    return [months, days, weekends];
  }

  // Each property's lines are written as one HTML string for the browser's parser, which is several times
  // faster than an element at a time for a night's hundred thousand ranges; so every piece of outside text
  // that goes in is escaped here, attributes and text alike.
  var ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  function esc(text) { return String(text).replace(/[&<>"']/g, function (c) { return ESCAPES[c]; }); }
  // Per value, once: its escaped text and its cell's class and style.
  var looks = data.values.map(function (value, index) {
    var cleared = value === "n/a", colour = data.colours[index];
    return {
      text: esc(value),
      said: esc(cleared ? "n/a (cleared)" : value),
      style: cleared ? "" : ";background:" + esc(colour[0]) + ";color:" + esc(colour[1]),
      className: cleared ? "r cleared" : "r"
    };
  });
  // What the run did with a range (data.states: a class and its words): a range not applied is drawn with its
  // own mark, never in its value's colour, so that a mailed page never says a failed room was set.
  var states = data.states.map(function (state) {
    return { mark: state[0], said: state[1] ? "; " + esc(state[1]) : "", off: state[0] === "notapplied" };
  });
  // A range as every table of the page writes it (records/rules.py's shown_dates: one date, or first..last).
  function span(from, to) { return from === to ? from : from + ".." + to; }

  function line(index) {
    var key = data.keys[index], name = esc(keyName(key));
    var html = '<div class="line" data-property="' + esc(key[0]) + '" data-room="' + esc(key[1]) +
      '" data-rate="' + esc(key[2]) + '"><span class="label" title="' + name + '">' + name +
      '</span><div class="track">';
    var ranges = rangesOf[index];
    for (var n = 0; n < ranges.length; n++) {
      var range = ranges[n], first = range[1], last = range[2], look = looks[range[3]], state = states[range[4]];
      var from = iso(first), to = iso(last);
      var said = name + ", " + span(from, to) + ": " + look.said + state.said;
      // The value as text only where it fits: a few characters a date.
      var shown = !state.off && data.values[range[3]].length <= 2 * (last - first + 1) ? look.text : "";
      html += '<span class="' + (state.off ? "r" : look.className) + (state.mark ? " " + state.mark : "") +
        '" style="grid-column:' + (first + 1) + "/" + (last + 2) + (state.off ? "" : look.style) + '" title="' +
        said + '" role="img" aria-label="' + said +
        '" data-from="' + from + '" data-to="' + to + '" data-value="' + look.text + '">' + shown + "</span>";
    }
    return html + "</div></div>";
  }

  function drawMap() {
    var maps = document.getElementById("maps");
    maps.style.setProperty("--days", data.days);
    var heads = header();
    properties.forEach(function (property) {
      var section = el("section", "property");
      section.dataset.property = property;
      section.appendChild(el("h3", null, "Property " + property));
      var scroller = el("div", "scroller");
      scroller.appendChild(heads[0].cloneNode(true));
      scroller.appendChild(heads[1].cloneNode(true));
      scroller.appendChild(heads[2].cloneNode(true));
      var keys = byProperty[property].slice().sort(function (a, b) {
        return keyName(data.keys[a]) < keyName(data.keys[b]) ? -1 : 1;
      });
      scroller.insertAdjacentHTML("beforeend", keys.map(line).join(""));
      section.appendChild(scroller);
      maps.appendChild(section);
    });
  }

  // --- filters: status, property, room; the first values may come from the address (?status=failed) ---
  var filters = { status: "", property: "", room: "" };
  var wanted = new URLSearchParams(location.search);
  function fill(name, values) {
    var select = document.getElementById("f-" + name);
    // A value asked for in the address that no row has is still offered: it then shows that none match.
    if (wanted.get(name) && values.indexOf(wanted.get(name)) < 0) values = values.concat([wanted.get(name)]);
    values.forEach(function (value) { select.appendChild(el("option", null, value)).value = value; });
    if (values.indexOf(wanted.get(name)) >= 0) { select.value = wanted.get(name); filters[name] = select.value; }
    select.addEventListener("change", function () { filters[name] = select.value; apply(); });
  }
  function unique(values) { return Array.from(new Set(values)).sort(); }
  function keeps(property, room, status) {
    return (!filters.property || property === filters.property) && (!filters.room || room === filters.room) &&
      (!filters.status || status === undefined || status === filters.status);
  }

  function table(target, heads, items, cells) {
    target.textContent = "";
    var matching = items.filter(function (item) { return cells.keep(item); });
    var shown = el("table", cells.className);
    var head = shown.appendChild(el("thead")).appendChild(el("tr"));
    heads.forEach(function (name) { head.appendChild(el("th", null, name)); });
    var body = shown.appendChild(el("tbody"));
    matching.slice(0, MOST_ROWS).forEach(function (item) { body.appendChild(cells.row(item)); });
    var count = el("p", "note", matching.length + " of " + items.length + " shown" +
      (matching.length > MOST_ROWS ? " (the first " + MOST_ROWS + " drawn: narrow the filters for the rest)" : ""));
    count.id = target.id + "-count";
    target.appendChild(count);
    target.appendChild(shown);
  }

  function rowLine(values, className) {
    var tr = el("tr", className);
    values.forEach(function (value) {
      tr.appendChild(value instanceof Node ? el("td").appendChild(value).parentNode : el("td", null, value));
    });
    return tr;
  }

  function errorsCell(ids) {
    var cell = el("div");
    ids.forEach(function (id) {
      var problem = data.errors[id];
      var p = cell.appendChild(el("p", "error", problem[0]));
      if (problem[1]) { p.appendChild(el("br")); p.appendChild(el("span", "hint", "check: " + problem[1])); }
    });
    return cell;
  }

  function drawRows() {
    var target = document.getElementById("rows-table");
    if (!target || !data.rows) return;
    // source, lines, count, status, property, room, rate, dates, value, tracking ids, errors, note
    table(target, ["file", "lines", "rows", "status", "property", "room", "rate", "dates", "value",
      "tracking ids", "errors: what to check", "note"], data.rows, {
      className: "rows",
      keep: function (g) { return keeps(g[4], g[5], g[3]); },
      row: function (g) {
        var tr = rowLine([g[0], g[1], String(g[2]), g[3], g[4], g[5], g[6], g[7], g[8], g[9], errorsCell(g[10]),
          g[11]], "status-" + g[3].replace(/ /g, "-"));
        tr.dataset.status = g[3];
        return tr;
      }
    });
  }

  function drawDiff() {
    var target = document.getElementById("diff-table");
    if (!target || !data.diff) return;
    table(target, ["property", "room", "rate", "dates", "kind", "before", "after"], data.diff, {
      className: "diff",
      keep: function (d) { var key = data.keys[d[0]]; return keeps(key[0], key[1], d[3]); },
      row: function (d) {
        var key = data.keys[d[0]];
        return rowLine([key[0], key[1], key[2], span(iso(d[1]), iso(d[2])), d[3], d[4], d[5]], "kind-" + d[3]);
      }
    });
  }

  function apply() {
    document.querySelectorAll("#maps .property").forEach(function (section) {
      section.classList.toggle("hidden", !!filters.property && section.dataset.property !== filters.property);
    });
    document.querySelectorAll("#maps .line:not(.head)").forEach(function (row) {
      row.classList.toggle("hidden", !!filters.room && row.dataset.room !== filters.room);
    });
    drawRows();
    drawDiff();
  }

  drawMap();
  var statuses = data.rows ? data.rows.map(function (g) { return g[3]; }) :
    data.diff ? data.diff.map(function (d) { return d[3]; }) : [];
  if (statuses.length) fill("status", unique(statuses));
  else document.getElementById("f-status").parentNode.hidden = true;
  fill("property", properties);
  fill("room", unique(data.keys.map(function (key) { return key[1]; })));
  document.querySelector(".filters").hidden = false;
  apply();
  // The marker tests and the benchmark wait for: the map and tables are drawn and laid out (reading a size
  // makes the browser lay the page out now, so that the time measured includes it).
  void document.body.offsetHeight;
  document.body.dataset.drawMs = String(Math.round(performance.now() - began));
  document.body.dataset.drawn = "1";
})();
