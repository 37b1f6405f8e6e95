"""tests/browser/check.py CHROMIUM PAGE.html...: each committed HTML document
opened in headless Chromium.  Per page:
  * links: every href="#x" has an element with id x; every img src is a file;
  * alt text: every img has one, more than the file's name; inside
    <figure id="figN"> it begins "Figure N: ", and where the figure's data
    table follows (table class="figdata": the records it draws, doc/figdata.h)
    it carries the table's numbers: every row's record and values, up to the
    rows it counts as left to the table ("… and K more rows");
  * console: Chromium's log of the load has no console error and no failed load;
  * text: the DOM Chromium built holds the page's headings and figure
    captions as text (searchable, selectable: no user-select: none);
  * figures: every img of the page drawn by Chromium in a grid of cells, the
    screenshot decoded (zlib, PNG filters) and each cell's share of
    non-background pixels above 2 % (a broken image's icon is < 1 %).
Prints "# browser: N passed, N failed, 0 skipped" last.
"""
import html.parser
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

chromium, pages = sys.argv[1], sys.argv[2:]
passed = failed = 0
CELL, COLS = 320, 4


def report(ok, what):
    global passed, failed
    passed, failed = passed + bool(ok), failed + (not ok)
    print(("ok " if ok else "FAIL ") + what)


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs, self.imgs, self.heads, self._h = set(), [], [], [], None
        # per <figure>: its id, its img's alt, the rows of its data table
        self.figs, self._fig, self._rows, self._cell = [], None, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href", "").startswith("#"):
            self.hrefs.append(a["href"][1:])
        if tag == "img":
            self.imgs.append((a.get("src", ""), a.get("alt")))
            if self._fig is not None:
                self._fig["alt"] = a.get("alt") or ""
        if tag == "figure":
            self._fig = {"id": a.get("id", ""), "alt": None, "rows": []}
            self.figs.append(self._fig)
        if tag == "table" and a.get("class") == "figdata" and self._fig is not None:
            self._rows = self._fig["rows"]
        if self._rows is not None and tag == "tr":
            self._rows.append([])
        if self._rows is not None and tag in ("td", "th"):
            self._cell = ""
        if tag in ("h1", "h2", "h3"):
            self._h = ""

    def handle_data(self, data):
        if self._h is not None:
            self._h += data
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3") and self._h is not None:
            self.heads.append(" ".join(self._h.split()))
            self._h = None
        if tag in ("td", "th") and self._cell is not None and self._rows:
            self._rows[-1].append(" ".join(self._cell.split()))
            self._cell = None
        if tag == "table":
            self._rows = None
        if tag == "figure":
            self._fig = None


def alt_lacks(fig):
    """What a figure's alt text lacks of its number and its data table ("" none)."""
    m = re.match(r"fig(\d+)$", fig["id"])
    alt = " ".join((fig["alt"] or "").split())
    if not m or not alt.startswith("Figure %s: " % m.group(1)):
        return "%s: alt does not begin 'Figure %s: '" % (fig["id"], m.group(1) if m else "?")
    if not fig["rows"]:
        return ""
    head, rows = fig["rows"][0], fig["rows"][1:]
    left = re.search(r"… and (\d+) more rows in the figure's data table$", alt)
    shown = rows[:len(rows) - int(left.group(1))] if left else rows
    if not shown and rows:
        return "%s: alt carries none of its %d data rows" % (fig["id"], len(rows))
    for r in shown:
        for h, c in zip(head[1:-1], r[1:-1]):
            # a cell the record's name begins with (its series) is not repeated
            if c != "–" and not r[0].startswith(c + " ") and "%s %s" % (h, c) not in alt:
                return "%s: alt lacks %s's %s %s" % (fig["id"], r[0], h, c)
        if r[0] + ":" not in alt:
            return "%s: alt lacks the record %s" % (fig["id"], r[0])
    return ""


def chrome(args, tmp):
    prof = tempfile.mkdtemp(dir=tmp)
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--user-data-dir=" + prof, "--enable-logging=stderr", "--v=0"] + args
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=300)


def png_pixels(path):
    """width, height, rows of RGB(A) bytes of an 8-bit, non-interlaced PNG"""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0 and ctype in (2, 6)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


tmp = tempfile.mkdtemp()
for page in pages:
    src = open(page, encoding="utf-8").read()
    p = Page()
    p.feed(src)
    here = os.path.dirname(os.path.abspath(page))
    dangling = [h for h in p.hrefs if h not in p.ids]
    report(p.hrefs and not dangling, "%s: %d internal links, each to an id%s" % (page, len(p.hrefs), ": missing " + ", ".join(dangling[:5]) if dangling else ""))
    missing = [s for s, _ in p.imgs if not os.path.isfile(os.path.join(here, s))]
    report(p.imgs and not missing, "%s: %d images, each a file%s" % (page, len(p.imgs), ": missing " + ", ".join(missing[:5]) if missing else ""))
    weak = [s for s, alt in p.imgs if not alt or not alt.strip() or alt.strip() in (s, os.path.basename(s))]
    weak += [w for w in (alt_lacks(f) for f in p.figs) if w]
    report(not weak, "%s: every image has alt text beyond its file name, each figure's with its number and the "
           "numbers of its data table (%d tables)%s" % (page, sum(1 for f in p.figs if f["rows"]),
                                                      ": not " + "; ".join(weak[:5]) if weak else ""))
    report("user-select:none" not in src.replace(" ", ""), "%s: no text made unselectable (user-select: none)" % page)

    url = "file://" + os.path.abspath(page)
    r = chrome(["--dump-dom", url], tmp)
    console = [l for l in r.stderr.splitlines() if "CONSOLE" in l or "Failed to load" in l or "net::ERR" in l]
    report(r.returncode == 0 and not console, "%s: Chromium loads it, no console error or failed load%s" % (page, ": " + console[0][:200] if console else " (exit %d)" % r.returncode if r.returncode else ""))
    dom = html.unescape(re.sub(r"<[^>]+>", " ", r.stdout))
    dom = " ".join(dom.split())
    lost = [h for h in p.heads if h not in dom]
    report(p.heads and not lost, "%s: its %d headings are text in Chromium's DOM%s" % (page, len(p.heads), ": not " + "; ".join(lost[:3]) if lost else ""))

    # every figure drawn: the page's images in a grid of cells, screenshot, each cell inked
    grid = os.path.join(here, ".browser-grid.html")
    cells = "".join('<div style="position:absolute;left:%dpx;top:%dpx;width:%dpx;height:%dpx">'
                    '<img src="%s" style="max-width:%dpx;max-height:%dpx"></div>'
                    % ((i % COLS) * CELL, (i // COLS) * CELL, CELL, CELL, html.escape(s), CELL - 8, CELL - 8)
                    for i, (s, _) in enumerate(p.imgs))
    rows_n = (len(p.imgs) + COLS - 1) // COLS
    try:
        with open(grid, "w", encoding="utf-8") as f:
            f.write('<!DOCTYPE html><html><body style="margin:0;background:#fff">%s</body></html>' % cells)
        shot = os.path.join(tmp, "shot.png")
        r = chrome(["--screenshot=" + shot, "--hide-scrollbars", "--window-size=%d,%d" % (COLS * CELL, rows_n * CELL),
                    "file://" + grid], tmp)
    finally:
        os.unlink(grid)
    if not os.path.isfile(shot):
        report(False, "%s: no screenshot: %s" % (page, r.stderr.strip()[-200:]))
        continue
    w, h, bpp, px = png_pixels(shot)
    blank = []
    for i, (s, _) in enumerate(p.imgs):
        x0, y0 = (i % COLS) * CELL, (i // COLS) * CELL
        inked = total = 0
        for y in range(y0, min(y0 + CELL, h), 2):
            line = px[y]
            for x in range(x0, min(x0 + CELL, w), 2):
                total += 1
                if min(line[x * bpp:x * bpp + 3]) < 235:
                    inked += 1
        if not total or inked / total < 0.02:
            blank.append("%s (%.1f %%)" % (os.path.basename(s), 100.0 * inked / max(total, 1)))
    report(not blank, "%s: every one of its %d figures drawn by Chromium%s" % (page, len(p.imgs), ": blank " + ", ".join(blank[:5]) if blank else ""))
shutil.rmtree(tmp, ignore_errors=True)
print("# browser: %d passed, %d failed, 0 skipped" % (passed, failed))
sys.exit(1 if failed else 0)
