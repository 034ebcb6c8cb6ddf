"""HTML pages: the data of each page, and the one Jinja2 writer with its templates."""
