"""Maps in and out of pnpgen: the TTR Map Editor's files (``generator.mapio.ttrme``) read into a new
game folder (``generator.mapio.importer``, ``pnpgen import``) and written back
(``generator.export.ttrme``, ``pnpgen export ttr-map-editor``).

The editor's files are untrusted like any content: bounded in size and in items, every mistake a
``ContentError`` (exit 2) naming the file and the line (CSV) or the field (JSON), nothing written
when anything is wrong.
"""
