"""The files `export` writes for a user to edit and push back: what their header says (`header.py`, written by
`export` and read back by `inputs/`), the tables of values (`tables.py`, pure) and the writers (`write.py`: CSV,
and workbooks through openpyxl, which only an export loads).

Its own folder, not `render/`: render shows a result on standard output and `app/` may not import it, while an
exported file is an input of a later push, whose header `inputs/` must read; both sides import this folder."""
