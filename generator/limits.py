"""Limits on what a game folder may ask of pnpgen.

Content is untrusted (a zip from a forum, a clone of someone's repository):
every expansion it controls — YAML aliases and nesting, file sizes, counts,
lengths and sizes, layout repeats, Jinja arithmetic, loops and output — has a
ceiling here, far above any real game, so that ``check`` and ``build`` always
finish in bounded time and memory. Each limit, when hit, is a content error at
the line that asked for it, naming the limit. The README lists them.
"""
from __future__ import annotations

# --- files -----------------------------------------------------------------
#: bytes in one content file (YAML, rules.md, a layout, a template); the largest bundled one is ~40 KB
MAX_FILE_BYTES = 4 * 1024 * 1024
#: files of one game folder the stamp's content hash reads (generator.model.stamp): the bundled games have < 40
MAX_CONTENT_FILES = 5_000
#: entries of an existing OUT/<game> looked at before a build replaces it (``output_folder``): a build of a large game
#: with every output writes one SVG per face (a 100,000-card game ~100,000 files), so MAX_CONTENT_FILES is too few
MAX_OUTPUT_FOLDER_ENTRIES = 1_000_000
#: nodes of one YAML file once its aliases are expanded (a "billion laughs" bomb stops here)
MAX_YAML_NODES = 500_000
#: the largest whole number content may write (YAML, a spreadsheet cell), either sign: 2**53, the last a float holds
#: exactly. A size, a position or a count is worked as a float, and a 400-digit one is no float at all (a card
#: size of 10**400 was a traceback, "int too large to convert to float"); no count or score comes near
MAX_WHOLE_NUMBER = 2**53
#: how deeply YAML collections may nest (the bundled games need 6)
MAX_YAML_DEPTH = 64
#: UTF-8 bytes of an id that becomes a file name (a game, deck, component or board id, a layout name):
#: file names stop at 255 bytes, and pnpgen adds prefixes and suffixes (``board-<id>-tiles-letter.pdf``)
MAX_ID_BYTES = 100
#: bytes of one picture file (PNG, JPEG, SVG) a game names
MAX_IMAGE_BYTES = 64 * 1024 * 1024
#: pixels of one raster picture (width × height), checked from its header before it is decoded (a
#: decompression bomb stops here); a whole 790 × 525 mm board at 300 dpi is 58 million
MAX_IMAGE_PIXELS = 80_000_000
#: a raster picture of more pixels than this (a 4,000 × 4,000 photograph) is embedded in a PDF at the size it is
#: printed, at most MAX_PICTURE_DPI there (twice what a print shop asks), not at its own size: a 72-million-pixel
#: PNG on a card is decoded once (216 MB as RGB, given back) and embedded as 1,500 × 2,000 pixels, where
#: ReportLab's copies of all its pixels (alpha split, RGB conversion, bytes, digest) took a build to 790 MB
MAX_UNREDUCED_PIXELS = 16_000_000
MAX_PICTURE_DPI = 600
#: pixels of the band of rows such a picture is scaled down a band at a time (``images.reduced``): Pillow's reduce
#: of an RGBA picture copies all of it first, premultiplied (another 320 MB for 80 million pixels)
REDUCE_BAND_PIXELS = 4_000_000
#: elements of one SVG picture, each ``<use>`` counted as the elements it copies (svglib draws ~5,000 a second;
#: the bundled pictures have under 20, a detailed map illustration a few thousand)
MAX_SVG_ELEMENTS = 20_000
#: the largest number an SVG picture's drawing may hold (a coordinate, a size, a transform's factor) and the
#: smallest size it may have, in points: ReportLab cannot write 1e25 into a PDF, nor scale a 1e-300 pt picture
MAX_SVG_NUMBER = 1e9
MIN_SVG_SIZE_PT = 0.01

# --- spreadsheets (cards:, places:, routes: {from: file}) -------------------------
#: bytes of a spreadsheet file (CSV, TSV, XLSX, ODS) as stored
MAX_SHEET_BYTES = 8 * 1024 * 1024
#: bytes an XLSX or ODS file (a zip) may unpack to, all its members together (a zip bomb stops here)
MAX_SHEET_UNZIPPED_BYTES = 64 * 1024 * 1024
#: rows of one sheet, the header included (a deck's cards are at most MAX_CARDS_PER_DECK)
MAX_SHEET_ROWS = 20_001
#: columns of one sheet (a card has a few fields; a route row at most 8)
MAX_SHEET_COLUMNS = 256
#: characters an XLSX or ODS sheet's cells hold once each shared string (XLSX) or repeated cell (ODS) is counted
#: at every cell that shows it: the reader copies it into each (a 10 MB shared string named by 20,000 cells, in a
#: 114 KB file, exhausted memory); a deck of 20,000 cards of ten 50-character fields holds 10 million
MAX_SHEET_TEXT = 32_000_000

# --- counts ----------------------------------------------------------------
#: the most players a game may seat (``game: players:``); each is a hand, a colour and a bot in ``simulate``
#: (a game of up to 1,000,000 players took a simulation to 1.2 GB); published route games seat up to 8
MAX_PLAYERS = 100
#: printed cards in one deck (counts included); the largest bundled deck has 110
MAX_CARDS_PER_DECK = 20_000
#: pieces of one component (tokens, tiles, dice, sheets: copies included)
MAX_PIECES_PER_COMPONENT = 20_000

# --- lengths and sizes (mm) -------------------------------------------------
#: train spaces in one route; the longest published route has 10
MAX_ROUTE_LENGTH = 50
#: shortest paths of one ticket looked at (statistics share a ticket among them; a grid map has millions)
MAX_SHORTEST_PATHS = 32
#: distances from the places searched from that the map's network keeps at once (``Network._lengths_from``: one
#: search per ticket's start gives the distance to every place): a map of 8,000 places in a chain with 4,000 tickets
#: from as many starts kept 32 million (1.9 GB). A bundled map keeps under 5,000
MAX_KEPT_DISTANCES = 1_000_000
#: pairs of places ``pnpgen tickets suggest`` values (each: two shortest-path searches, ~0.3 ms on a map of 200
#: places; a map of 71 places has 2,485 pairs), and the pairs and the
#: routes their shortest paths cross, times the tickets asked for (its greedy scores each at every step, ~0.5 µs):
#: Germany's 1,596 pairs cross ~13,000 routes (40 tickets: 0.6 million); a 14 × 14 grid of equal routes has 19,110
#: pairs crossing ~5 million (40 tickets: 200 million, 47 s). Past either, a sample of the pairs drawn with the seed
MAX_TICKET_CANDIDATES = 2_500
#: pairs of places ``tickets suggest`` lists and shuffles to draw them in the seed's order; a map of more pairs (over
#: 1,000 places) has this many drawn at random instead (8,000 places' 32 million pairs, listed, took 3 GB)
MAX_TICKET_PAIRS = 500_000
MAX_TICKET_WORK = 4_000_000

#: ``pnpgen fit``: routes one move may price (a move re-plans the routes and places near it, twice; where more
#: than this many crowd, it is not tried: re-planning a crowd costs like checking the whole board, and a board
#: of 196 places crammed into 40 × 40 mm took more than 5 minutes for its 400 moves), and routes priced in all
MAX_FIT_REGION_ROUTES = 60
MAX_FIT_WORK = 100_000
#: positions one place may have (``at:`` a list or named border points); Switzerland's countries have up to 6
MAX_PLACE_POINTS = 32
#: shapes of one map's ``terrain:`` (land, sea, rivers, regions …); Germany draws 12
MAX_TERRAIN_SHAPES = 500
#: points of one terrain shape; Germany's outline, simplified to 0.1 mm, has ~300
MAX_TERRAIN_POINTS = 5_000
#: the smallest card, token or tile side (trim), mm
MIN_PIECE_MM = 5.0
#: the largest printer margin (``print: margin:``), mm: beyond it no card sheet is worth printing at home
MAX_PRINTER_MARGIN_MM = 20.0
#: the widest gap between cards on a home sheet (``print: home_gutter:``), mm
MAX_HOME_GUTTER_MM = 20.0
#: the most columns or rows asked of a home card sheet (``print: home_grid:``)
MAX_HOME_GRID = 20
#: the widest bleed a print shop is given (``print: shop_bleed:``), mm: shops ask for 3-5 mm
MAX_SHOP_BLEED_MM = 10.0
#: the largest board side, mm (boards are tiled over home sheets; print shops go to about 1.5 m)
MAX_BOARD_MM = 2000.0

# --- layouts -----------------------------------------------------------------
#: layouts in one `extends:` chain (a layout, its parent, its parent's parent …); the bundled ones use 2
MAX_EXTENDS = 8
#: copies of one layout element (``repeat:``)
MAX_REPEAT = 10_000
#: primitives drawn on one face, nested repeats multiplied (a ticket's mini-map draws ~600)
MAX_FACE_PRIMITIVES = 50_000
#: the largest text size of a layout's text element, pt (its fit steps down 0.5 pt at a time to ``min_size``);
#: 500 pt letters are 18 cm tall
MAX_TEXT_PT = 500.0
#: the largest magnitude of a number a layout element gives (a position, a size, an angle, an opacity): mm, pt or
#: degrees. 1e308 is finite, so it passed the check, and the PDF writer met infinity once it scaled it to points
#: (a traceback); a million mm is a kilometre
MAX_LAYOUT_NUMBER = 1_000_000.0

# --- Jinja (layout expressions and rules.md) ----------------------------------
#: bits of an integer that arithmetic may produce (2**4096 is a 1,234-digit number)
MAX_JINJA_INT_BITS = 4096
#: characters of a string, or items of a list, that an operator or call may produce
MAX_JINJA_SEQUENCE = 1_000_000
#: loop iterations in one evaluation of a template or expression
MAX_JINJA_ITERATIONS = 1_000_000
#: turns of Jinja work (MAX_JINJA_ITERATIONS' count: loop turns and the work inside filters, calls and comparisons) all
#: the expressions of one card face may do together: each is bounded alone, but a layout element repeated 10,000
#: times evaluates its expressions 10,000 times (200 sorts of a 10**5-item list: 12 s a face). The bundled
#: faces do under 2,500 (s-railway's train card: 2,329)
MAX_FACE_JINJA_WORK = 2_000_000
#: characters one rendered template may produce (the bundled rule sheets make ~30,000)
MAX_JINJA_OUTPUT = 4_000_000
#: cells of one Markdown table in rules.md (each is measured and set; a route table of 110 rows has 550)
MAX_RULES_TABLE_CELLS = 10_000
#: characters and lines of a rule sheet's Markdown once its Jinja has run (the largest bundled one: 6,100
#: characters, 212 lines); markdown-it costs ~0.2 ms a token
MAX_RULES_MARKDOWN = 100_000
MAX_RULES_LINES = 5_000
#: characters of a rule sheet's Markdown that start inline markup (* _ ` [ \ &: emphasis, code, links, escapes,
#: entities), once its Jinja has run: markdown-it, its tree and the rule sheet's layout cost ~0.1 ms each, ten
#: times a plain word (24,000 emphasised words, under MAX_RULES_MARKDOWN: 2.7 s); the bundled sheets have under 100
MAX_RULES_MARKS = 10_000
#: source lines × rendered lines of rules.md that are diffed to give an error its source line (the diff costs up
#: to their product times the changes: 500 × 500 alternating lines, 0.5 s); past it, the lines between the first
#: and the last change map approximately (the bundled rule sheets: under 36,000)
MAX_LINE_MAP_WORK = 250_000

# --- fonts -------------------------------------------------------------------
#: bytes in one font file a game declares (``fonts:``); IPAexGothic, the largest bundled one, is ~6 MB
MAX_FONT_BYTES = 64 * 1024 * 1024

# --- exports (pnpgen export png / tts) ---------------------------------------
#: pixels on one side of an exported image (a 2 m board at 100 dpi is 7,874 px)
MAX_EXPORT_PX_SIDE = 16_384

# --- maps brought in (pnpgen import) -------------------------------------------
#: bytes of one TTR Map Editor file (JSON map, or CSV); a map file embeds its background picture, ~2 MB as a rule
MAX_MAP_FILE_BYTES = 32 * 1024 * 1024
#: stops, routes or tickets of one imported map (each); the largest published maps have under 300 routes
MAX_MAP_ITEMS = 10_000
#: bend points of one imported route
MAX_MAP_BENDS = 200
#: characters of a stop's name or a ticket deck's name in an imported map
MAX_MAP_NAME = 200

# --- boards --------------------------------------------------------------------
#: tests of a name's box against what it must not cover, in placing one board's names (each name tries up to 24
#: spots against the routes, cities and names near it): the bundled boards use under 500; 196 places crammed into
#: 40 × 40 mm used 218,000 (2 s), 784 places 2.3 million (23 s). Past it, the remaining names stand at their
#: first spot inside the frame, each a finding
MAX_NAME_TESTS = 100_000

# --- hashing a game folder (the build cache's key, the stamp, the preview's) ---------
#: the largest file pnpgen reads as content of any kind (a picture or a font: MAX_IMAGE_BYTES, MAX_FONT_BYTES): a
#: larger file in a game folder is never read, only refused by its size, so its size stands for it where the folder
#: is hashed
MAX_CONTENT_FILE_BYTES = max(MAX_FILE_BYTES, MAX_IMAGE_BYTES, MAX_FONT_BYTES, MAX_SHEET_BYTES, MAX_MAP_FILE_BYTES)
#: bytes of a game folder's files read to hash it (the bundled games: under 10 MB). Every check hashed every byte of
#: every file: a 20 GB sparse file (a few bytes in a tar) held a check for minutes. Past it the build cache leaves the
#: game uncached, and the stamp and the preview take the remaining files by their size
MAX_HASHED_BYTES = 512 * 1024 * 1024

# --- pnpgen serve -------------------------------------------------------------
#: seconds a request's head (request line and headers) may take to arrive, from the connection's opening or the
#: previous response; a browser sends it at once. uvicorn times only the pause between requests, so a client
#: sending a byte a minute held its connection forever
SERVE_REQUEST_HEAD_SECONDS = 10.0
#: connections (and requests being answered) ``pnpgen serve`` holds at once; past it a request is answered 503 at
#: once. Each preview tab holds one event stream and a browser opens up to six connections a host: 100 is many tabs
SERVE_MAX_CONNECTIONS = 100


# --- pnpgen simulate (agree) -----------------------------------------------------
#: turns of one simulated game (every player's turns): a game of bots that never finish (ten million trains each,
#: a ticket deck that never runs out) is stopped here and reported as ended by "turn limit"; Germany's take ~100
MAX_SIMULATE_TURNS = 2_000
#: work of one simulated game, in steps (~0.1-0.2 µs each): a place or route a bot's path search looks at, a track it
#: weighs for a claim (8 steps), a position a line-game bot weighs. A game past it ends there, reported as ended by
#: "work limit" (on a grid of 2,500 places a greedy game re-plans its tickets for a second a turn): ~1-2 s of CPU. A
#: 4-player game of Germany takes ~180,000 steps with greedy bots, ~520,000 with five lookahead ones, S鉄道 ~70,000
MAX_SIMULATE_GAME_WORK = 10_000_000
#: work of a whole run (its games together; each chunk of 50 games may spend its share): past it the run stops,
#: naming how many games would fit (``--games``). ~5-10 minutes of one core: 16,000 greedy games of Germany
MAX_SIMULATE_WORK = 3_000_000_000
#: trails the longest-path bonus card (European Express) tries for one player: the longest trail is a search through
#: every way of chaining the player's routes, which a player owning 200 routes of a grid cannot finish; past it the
#: game ends by "work limit" and the bonus goes to the longest trail found
MAX_LONGEST_PATH_STEPS = 1_000_000
#: steps the report spends finding each ticket's shortest paths (its "most contested routes"): past it the rest of
#: 5,000 tickets on a map of 2,500 places are left out, and the report says so
MAX_SIMULATE_REPORT_WORK = 20_000_000
#: games one ``pnpgen simulate`` plays (``--games``)
MAX_SIMULATE_GAMES = 1_000_000

