// Draws the report from the ranges in the JSON block: the calendar map, the diff's ranges and the rows,
// and makes the filters work. The page carries ranges, never a cell per date, so that a night of a
// million rows stays small: a range is one element spanning its dates on a CSS grid whose background
// draws the date cells. Outside text only ever goes in through textContent and attributes, never as HTML.
(function () {
  "use strict";
  var began = performance.now();
  var data = JSON.parse(document.getElementById("data").textContent);
  // Keys as page.py packs them (a property's number, the room, the rate when there is one).
  data.keys = data.keys.map(function (k) { return [data.properties[k[0]], k[1], k.length > 2 ? k[2] : ""]; });
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

  // The months the page covers, each a block of its own (a year is twelve blocks that each fit a screen and a
  // printed page, not one strip of 365 dates); per date, its month and its day of the month.
  var months = [], monthOf = [], dayOf = [];
  for (var at = 0; at < data.days;) {
    var d = date(at);
    var length = Math.min(data.days - at,
      new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)) / DAY - (origin / DAY + at));
    for (var n = 0; n < length; n++) { monthOf.push(months.length); dayOf.push(d.getUTCDate() - 1 + n); }
    months.push({ first: at, length: length, from: d.getUTCDate(), id: iso(at).slice(0, 7),
                  name: MONTHS[d.getUTCMonth()] + " " + d.getUTCFullYear() });
    at += length;
  }

  // A month's head (its day numbers, weekends marked) and its weekend layer: a shaded cell per Saturday and
  // Sunday over all the block's lines (a few elements, not one per line and date).
  function monthHead(month) {
    var days = el("div", "line head"), track = el("div", "track"), weekends = el("div", "weekends");
    days.appendChild(el("span", "label"));
    for (var n = 0; n < month.length; n++) {
      var weekday = date(month.first + n).getUTCDay(), weekend = weekday === 0 || weekday === 6;
      var cell = track.appendChild(el("span", weekend ? "day weekend" : "day", String(month.from + n)));
      cell.style.gridColumn = String(n + 1);
      if (weekend) weekends.appendChild(el("span")).style.gridColumn = String(n + 1);
    }
    days.appendChild(track);
    return [days, weekends];
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

  // The rows as data.py packs them (compact_rows): each unpacked to source, lines, count, status, property,
  // room, rate, dates, value, tracking ids, errors, note.
  if (data.rows) data.rows = data.rows.map(function (r) {
    var key = data.keys[r[0]], dates = r[3];
    if (typeof dates !== "string") dates = span(iso(dates[0]), iso(dates[1]));
    return [data.sources[r.length > 6 ? r[6] : 0], String(r[2]), r.length > 5 ? r[5] : 1, data.statuses[r[1]],
      key[0], key[1], key[2], dates, data.texts[r[4]], r.length > 8 ? r[8] : "", r.length > 9 ? r[9] : [],
      data.notes[r.length > 7 ? r[7] : 0]];
  });

  // One key's line in one month block: its ranges clipped to the month (data-from and data-to are the dates the
  // cell covers; its title and label say the whole range). `label` names the line (a room, or a month).
  function line(index, month, label, shift) {
    var key = data.keys[index], name = esc(keyName(key)), shown = label === undefined ? name : esc(label);
    shift = shift || 0; // columns before the month's first date: a key's own block puts each on the day of the month
    var html = '<div class="line" data-property="' + esc(key[0]) + '" data-room="' + esc(key[1]) +
      '" data-rate="' + esc(key[2]) + '" data-month="' + month.id + '"><span class="label" title="' + shown +
      '">' + shown + '</span><div class="track">';
    var ranges = rangesOf[index], end = month.first + month.length - 1;
    for (var n = 0; n < ranges.length; n++) {
      var range = ranges[n];
      if (range[2] < month.first || range[1] > end) continue;
      var first = Math.max(range[1], month.first), last = Math.min(range[2], end);
      var look = looks[range[3]], state = states[range[4]];
      var said = name + ", " + span(iso(range[1]), iso(range[2])) + ": " + look.said + state.said;
      // The value as text only where it fits: a few characters a date.
      var text = !state.off && data.values[range[3]].length <= 2 * (last - first + 1) ? look.text : "";
      html += '<span class="' + (state.off ? "r" : look.className) + (state.mark ? " " + state.mark : "") +
        '" style="grid-column:' + (first - month.first + 1 + shift) + "/" + (last - month.first + 2 + shift) +
        (state.off ? "" : look.style) + '" title="' + said + '" role="img" aria-label="' + said +
        '" data-from="' + iso(first) + '" data-to="' + iso(last) + '" data-value="' + look.text + '">' + text +
        "</span>";
    }
    return html + "</div></div>";
  }

  // A block of lines over one month: its head, its weekends, and `lines` (HTML) below them.
  function block(month, lines, className) {
    var section = el("section", className || "month");
    section.dataset.month = month.id;
    section.appendChild(el("h4", null, month.name));
    var scroller = section.appendChild(el("div", "scroller"));
    var grid = scroller.appendChild(el("div", "grid"));
    grid.style.setProperty("--mdays", month.length);
    var head = monthHead(month);
    grid.appendChild(head[0]);
    grid.appendChild(head[1]);
    grid.insertAdjacentHTML("beforeend", lines);
    return section;
  }

  // --- the year at a glance: per key, a small grid of months by days, a cell per date (drawn on a canvas: a
  // few thousand keys would otherwise be a million elements) ---
  var GLANCE = 6, GUTTER = 9; // a date's cell, in CSS pixels; the month initials' column
  var glanceColours = data.values.map(function (value, index) {
    return value === "n/a" ? "#8c8c8c" : data.colours[index][0] || "#8c8c8c";
  });
  function glance(index) {
    var key = data.keys[index];
    var figure = el("figure", "room");
    figure.dataset.property = key[0];
    figure.dataset.room = key[1];
    var canvas = figure.appendChild(el("canvas"));
    var ratio = window.devicePixelRatio || 1;
    var width = GUTTER + 31 * GLANCE, height = months.length * GLANCE;
    canvas.width = width * ratio;
    canvas.height = height * ratio;
    canvas.style.width = width + "px";
    canvas.style.height = height + "px";
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", keyName(key) + ": " + months.length + " months at a glance");
    var pen = canvas.getContext("2d");
    if (pen) {
      pen.scale(ratio, ratio);
      pen.fillStyle = "#f1f1f1"; // dates nothing set
      months.forEach(function (month, row) {
        pen.fillRect(GUTTER + (month.from - 1) * GLANCE, row * GLANCE, month.length * GLANCE - 1, GLANCE - 1);
      });
      rangesOf[index].forEach(function (range) {
        var state = states[range[4]];
        pen.fillStyle = state.off ? "#b00" : glanceColours[range[3]];
        for (var day = range[1]; day <= range[2]; day++) {
          pen.fillRect(GUTTER + dayOf[day] * GLANCE, monthOf[day] * GLANCE, GLANCE - 1, GLANCE - 1);
        }
      });
      pen.fillStyle = "#555";
      pen.font = GLANCE + "px system-ui, sans-serif";
      pen.textBaseline = "top";
      months.forEach(function (month, row) { pen.fillText(month.name.charAt(0), 0, row * GLANCE); });
    }
    figure.appendChild(el("figcaption", null, keyName(key)));
    return figure;
  }

  function sortedKeys(property) {
    return byProperty[property].slice().sort(function (a, b) {
      return keyName(data.keys[a]) < keyName(data.keys[b]) ? -1 : 1;
    });
  }

  function drawMap() {
    var maps = document.getElementById("maps");
    var glances = maps.appendChild(el("section", "glances"));
    glances.appendChild(el("h3", null, "At a glance: " + (months.length > 1 ? months[0].name + " to " +
      months[months.length - 1].name : months[0].name) + ", a line per month, a cell per date"));
    // Then each property, its months a block at a time (in print, each property starts a page).
    properties.forEach(function (property) {
      var keys = sortedKeys(property);
      var box = glances.appendChild(el("div", "glance"));
      box.dataset.property = property;
      box.appendChild(el("h4", null, "Property " + property));
      var rooms = box.appendChild(el("div", "rooms"));
      keys.forEach(function (index) { rooms.appendChild(glance(index)); });
      var section = el("section", "property");
      section.dataset.property = property;
      section.appendChild(el("h3", null, "Property " + property));
      months.forEach(function (month) {
        section.appendChild(block(month, keys.map(function (index) { return line(index, month); }).join("")));
      });
      maps.appendChild(section);
    });
  }

  // --- a big run: over MANY keys or MOST ranges (a night of 200,000 rooms would be millions of elements drawn at
  // once; a million-row night's 100,000 ranges, cut by month, take seconds more than issue 31's 5) the page lists
  // the keys, a property at a time, and draws a key's months when it is opened: a line per month ---
  var MANY = 5000, MOST = 60000, LISTED = 500, OPENED = 50;
  var lazy = data.keys.length > MANY || data.ranges.length > MOST;

  function keyMonths(index) {
    var box = el("div", "months");
    var scroller = box.appendChild(el("div", "scroller"));
    var grid = scroller.appendChild(el("div", "grid"));
    grid.style.setProperty("--mdays", 31);
    var head = grid.appendChild(el("div", "line head"));
    head.appendChild(el("span", "label"));
    var track = head.appendChild(el("div", "track"));
    for (var n = 1; n <= 31; n++) track.appendChild(el("span", "day", String(n))).style.gridColumn = String(n);
    grid.insertAdjacentHTML("beforeend", months.map(function (month) {
      return line(index, month, month.name, month.from - 1);
    }).join(""));
    return box;
  }

  function keyItem(index) {
    var key = data.keys[index];
    var item = el("details", "key");
    item.dataset.property = key[0];
    item.dataset.room = key[1];
    item.appendChild(el("summary", null, keyName(key)));
    item.addEventListener("toggle", function () {
      if (item.open && !item.dataset.drawn) { item.appendChild(keyMonths(index)); item.dataset.drawn = "1"; }
    });
    return item;
  }

  // A property's keys that the room filter keeps, the first LISTED of them (the filters narrow the rest).
  function listKeys(list, property) {
    list.textContent = "";
    var keys = sortedKeys(property).filter(function (index) {
      return !filters.room || data.keys[index][1] === filters.room;
    });
    keys.slice(0, LISTED).forEach(function (index, n) {
      var item = list.appendChild(keyItem(index));
      if (filters.room && n < OPENED) item.open = true; // asked for by name: drawn at once
    });
    if (keys.length > LISTED) {
      list.appendChild(el("p", "note", "the first " + LISTED + " of " + keys.length + " keys: narrow them with the room filter"));
    }
  }

  function drawList() {
    var maps = document.getElementById("maps");
    maps.appendChild(el("p", "note", data.keys.length + " keys, too many to draw at once: open a property, then a " +
      "room, to draw its months (or choose a room above)."));
    properties.forEach(function (property) {
      var details = maps.appendChild(el("details", "keys"));
      details.dataset.property = property;
      details.appendChild(el("summary", null, "Property " + property + ": " + byProperty[property].length + " keys"));
      var list = details.appendChild(el("div", "list"));
      details.addEventListener("toggle", function () {
        if (details.open && details.dataset.listed !== filters.room) {
          details.dataset.listed = filters.room;
          listKeys(list, property);
        }
      });
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
    document.querySelectorAll("#maps details.keys").forEach(function (details) {
      details.hidden = !!filters.property && details.dataset.property !== filters.property;
      // A room asked for opens the properties that have it, listing (and drawing) its keys.
      if (filters.room && !details.hidden) details.open = true;
      if (details.open && details.dataset.listed !== filters.room) {
        details.dataset.listed = filters.room;
        listKeys(details.querySelector(".list"), details.dataset.property);
      }
    });
    document.querySelectorAll("#maps .property, #maps .glance").forEach(function (section) {
      section.classList.toggle("hidden", !!filters.property && section.dataset.property !== filters.property);
    });
    document.querySelectorAll("#maps .line:not(.head), #maps .room").forEach(function (row) {
      row.classList.toggle("hidden", !!filters.room && row.dataset.room !== filters.room);
    });
    drawRows();
    drawDiff();
  }

  if (lazy) drawList(); else drawMap();
  var statuses = data.rows ? data.rows.map(function (g) { return g[3]; }) :
    data.diff ? data.diff.map(function (d) { return d[3]; }) : [];
  if (statuses.length) fill("status", unique(statuses));
  else document.getElementById("f-status").parentNode.hidden = true;
  fill("property", properties);
  if (lazy) {
    // Too many rooms to offer as a list: the room is typed (its exact id), Enter applies it.
    var select = document.getElementById("f-room"), typed = el("input");
    typed.id = "f-room";
    typed.type = "search";
    typed.placeholder = "room id";
    typed.value = filters.room = wanted.get("room") || "";
    select.replaceWith(typed);
    typed.addEventListener("change", function () { filters.room = typed.value.trim(); apply(); });
  } else {
    fill("room", unique(data.keys.map(function (key) { return key[1]; })));
  }
  document.querySelector(".filters").hidden = false;
  apply();
  // The marker tests and the benchmark wait for: the map and tables are drawn and laid out (reading a size
  // makes the browser lay the page out now, so that the time measured includes it).
  void document.body.offsetHeight;
  document.body.dataset.drawMs = String(Math.round(performance.now() - began));
  // From the page's request to drawn: reading the page (its data block too) and drawing it.
  document.body.dataset.loadMs = String(Math.round(performance.now()));
  // How the page fits the window, for the tests: its width, and how many month blocks scroll sideways.
  var clipped = 0;
  document.querySelectorAll("#maps .scroller").forEach(function (scroller) {
    if (scroller.scrollWidth > scroller.clientWidth + 1) clipped++;
  });
  document.body.dataset.width = String(document.documentElement.scrollWidth);
  document.body.dataset.clipped = String(clipped);
  document.body.dataset.drawn = "1";
})();
