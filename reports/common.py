"""Report building blocks: figure style and saving, interval formatting, HTML and Markdown.

The only place matplotlib is imported (lazily, on the ``Agg`` backend), so the other commands
never pay for it. A :class:`Report` collects sections, figures, tables and notes in order and
writes ``index.html`` (offline: inline CSS, figures and CSVs as files beside it),
``report.md``, ``setup.json`` (the set-up that produced it) and, per figure, ``NAME.png`` and
the CSV of every table behind it — exactly the analyzer's DataFrame, intervals included.
"""
import html
import json
import math
import os
import shlex
import time
from contextlib import contextmanager

import numpy as np

# every figure: these sizes and colours; one style for all games
FIG_W, FIG_H, DPI = 7.2, 4.2, 100
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf",
          "#7f7f7f"]
MAX_SHOWN_ROWS = 40          # longer tables are linked as CSV only
FOLD_ROWS = 12               # longer ones are folded (<details>) in the HTML
MIN_CELL_N = 30              # heatmap cells with fewer observations are left blank
MAX_REPORT_DEALS = 5_000_000

_plt = None


def plt():
    """matplotlib.pyplot on the Agg backend with the report style (imported on first use)."""
    global _plt
    if _plt is None:
        import matplotlib
        matplotlib.use("Agg", force=True)
        import matplotlib.pyplot as pyplot
        pyplot.rcParams.update({
            "font.size": 9, "axes.titlesize": 9.5, "axes.labelsize": 9,
            "xtick.labelsize": 8, "ytick.labelsize": 8, "legend.fontsize": 8,
            "axes.spines.top": False, "axes.spines.right": False,
            "axes.grid": True, "grid.alpha": 0.3, "grid.linewidth": 0.6,
            "axes.prop_cycle": matplotlib.cycler(color=COLORS),
            "figure.facecolor": "white", "savefig.facecolor": "white",
            "svg.hashsalt": "troef", "path.simplify": True,
        })
        _plt = pyplot
    return _plt


def fmt_n(n, unit):
    """``n = 1,234 player-deals``."""
    return f"n = {int(n):,} {unit}"


# ---------------------------------------------------------------- plotting helpers

def errorbar(ax, x, y, lo, hi, label=None, color=None, marker="o", **kw):
    """Points (or a line) with 95% interval bars."""
    x, y, lo, hi = (np.asarray(v, dtype=float) for v in (x, y, lo, hi))
    yerr = np.vstack([np.clip(y - lo, 0, None), np.clip(hi - y, 0, None)])
    return ax.errorbar(x, y, yerr=yerr, label=label, color=color, marker=marker, ms=4,
                       capsize=2.5, lw=1.3, elinewidth=0.9, **kw)


def bars(ax, labels, y, lo, hi, color=None, horizontal=False, pct=False, fmt=None, annotate=True):
    """Bars with 95% interval whiskers and the value printed at the end of each bar."""
    y, lo, hi = (np.asarray(v, dtype=float) for v in (y, lo, hi))
    pos = np.arange(len(labels))
    err = np.vstack([np.clip(y - lo, 0, None), np.clip(hi - y, 0, None)])
    color = color or COLORS[0]
    if horizontal:
        ax.barh(pos, y, xerr=err, color=color, alpha=0.85, capsize=2.5,
                error_kw={"elinewidth": 0.9})
        ax.set_yticks(pos, labels)
        ax.set_ylim(len(pos) - 0.4, -0.6)         # first label on top
        ax.grid(axis="y", visible=False)
    else:
        ax.bar(pos, y, yerr=err, color=color, alpha=0.85, capsize=2.5,
               error_kw={"elinewidth": 0.9})
        ax.set_xticks(pos, labels)
        ax.set_xlim(-0.6, len(pos) - 0.4)         # keep empty (n = 0) bars in place
        ax.grid(axis="x", visible=False)
    if annotate:
        fmt = fmt or ((lambda v: f"{v:.1%}") if pct else (lambda v: f"{v:.1f}"))
        for p, v, h, lw in zip(pos, y, hi, lo):
            if not np.isfinite(v):
                continue
            end = h if v >= 0 else lw
            if horizontal:
                ax.annotate(fmt(v), (end, p), xytext=(3 if v >= 0 else -3, 0),
                            textcoords="offset points", va="center",
                            ha="left" if v >= 0 else "right", fontsize=7)
            else:
                ax.annotate(fmt(v), (p, end), xytext=(0, 2 if v >= 0 else -2),
                            textcoords="offset points", ha="center",
                            va="bottom" if v >= 0 else "top", fontsize=7)
    if pct:
        percent_axis(ax, "x" if horizontal else "y")


def int_axis(ax, which="x"):
    """Whole-number ticks (bids, tricks, cards)."""
    from matplotlib.ticker import MaxNLocator
    (ax.xaxis if which == "x" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))


def percent_axis(ax, which="y"):
    from matplotlib.ticker import PercentFormatter
    (ax.xaxis if which == "x" else ax.yaxis).set_major_formatter(PercentFormatter(1.0, decimals=None))


def heatmap(fig, ax, table, row, col, value, n_col="n", fmt="{:.0%}", cmap="viridis",
            cbar_label="", vmin=None, vmax=None, center=None, min_n=MIN_CELL_N, row_labels=None,
            col_labels=None, star=None):
    """A row × col heatmap of ``value`` from a long table; cells with fewer than ``min_n``
    observations are left blank. ``star``: set of (row, col) cells to mark."""
    t = table[table[n_col] >= min_n] if n_col in table.columns and min_n else table
    src = t if len(t) else table
    rows = sorted(src[row].unique())
    cols = sorted(src[col].unique())
    grid = np.full((len(rows), len(cols)), np.nan)
    ri = {r: i for i, r in enumerate(rows)}
    ci = {c: j for j, c in enumerate(cols)}
    for r, c, v in zip(t[row], t[col], t[value]):
        grid[ri[r], ci[c]] = v
    if center is not None:
        span = np.nanmax(np.abs(grid - center)) if np.isfinite(grid).any() else 1.0
        vmin, vmax = center - span, center + span
    masked = np.ma.masked_invalid(grid)
    im = ax.imshow(masked, aspect="auto", cmap=cmap, vmin=vmin, vmax=vmax, origin="lower",
                   interpolation="nearest")
    ax.set_facecolor("#f2f2f2")
    ax.set_xticks(range(len(cols)), col_labels(cols) if callable(col_labels) else
                  (col_labels or [str(c) for c in cols]))
    ax.set_yticks(range(len(rows)), row_labels(rows) if callable(row_labels) else
                  (row_labels or [str(r) for r in rows]))
    ax.grid(False)
    lo_, hi_ = im.get_clim()
    for i in range(len(rows)):
        for j in range(len(cols)):
            v = grid[i, j]
            if not np.isfinite(v):
                continue
            rel = (v - lo_) / (hi_ - lo_) if hi_ > lo_ else 0.5
            dark = abs(rel - 0.5) > 0.3 if center is not None else rel < 0.55
            text = fmt.format(v) + ("*" if star and (rows[i], cols[j]) in star else "")
            ax.text(j, i, text, ha="center", va="center", fontsize=6.5,
                    color="white" if dark else "black")
    cb = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.02)
    cb.set_label(cbar_label)
    cb.ax.tick_params(labelsize=7)
    return im


def bar_panels(labels, table, xlabel, panels):
    """A ``draw`` for one bar chart per panel over the same ``labels`` (x axis ``xlabel``).
    ``panels``: per axes ``(column, y label, options)``; the interval of ``column`` is
    ``column_lo``/``column_hi``; the options go to :func:`bars`, except ``hline``: a dashed
    grey reference line at that value."""
    def draw(fig, axes):
        for ax, (col, ylabel, opts) in zip(axes if isinstance(axes, list) else [axes], panels):
            opts = dict(opts)
            hline = opts.pop("hline", None)
            bars(ax, labels, table[col], table[f"{col}_lo"], table[f"{col}_hi"], **opts)
            if hline is not None:
                ax.axhline(hline, color="#888", lw=0.8, ls="--")
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
    return draw


def no_data(ax, text="no cases in this run"):
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=9,
            color="#666")


# ---------------------------------------------------------------- table formatting

def _interval_cols(df, c):
    for base in (c, c[:-5] if c.endswith("_rate") else None):
        if base and f"{base}_lo" in df.columns and f"{base}_hi" in df.columns:
            return f"{base}_lo", f"{base}_hi"
    return None


def _is_rate(c):
    return (c in ("p", "share", "make_rate", "win_share") or c.endswith("_rate")
            or c.startswith("p_") or c.endswith("_share"))


def _fmt_value(v, rate):
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}"
    if isinstance(v, (float, np.floating)):
        if rate:
            return f"{v:.1%}"
        return f"{v:,.2f}"
    if isinstance(v, (list, tuple)):
        return ", ".join(_fmt_value(x, rate) for x in v)
    return str(v)


def display_rows(df, columns=None):
    """Header and formatted rows: every value with an interval shown as ``v [lo, hi]``;
    the ``_lo``/``_hi``/``_sd`` columns folded in."""
    cols = list(columns or df.columns)
    skip = set()
    for c in cols:
        iv = _interval_cols(df, c)
        if iv:
            skip.update(iv)
    skip.update(c for c in cols if c.endswith("_sd"))
    shown = [c for c in cols if c not in skip]
    rows = []
    for rec in df.to_dict("records"):
        row = []
        for c in shown:
            rate = _is_rate(c)
            iv = _interval_cols(df, c)
            text = _fmt_value(rec[c], rate)
            if iv and text != "–":
                lo, hi = rec[iv[0]], rec[iv[1]]
                if np.isfinite(lo) and np.isfinite(hi):
                    text += f" [{_fmt_value(float(lo), rate)}, {_fmt_value(float(hi), rate)}]"
            row.append(text)
        rows.append(row)
    header = [c + (" (95% interval)" if _interval_cols(df, c) else "") for c in shown]
    return header, rows


# ---------------------------------------------------------------- the report

class Figure:
    def __init__(self, name, title, n_text, png, csvs, caption, shown):
        self.name, self.title, self.n_text = name, title, n_text
        self.png, self.csvs, self.caption, self.shown = png, csvs, caption, shown


class Report:
    """Collects the blocks of one report in order and writes them (see the module doc)."""

    def __init__(self, out_dir, game, title, setup):
        self.out = str(out_dir)
        self.game = game
        self.title = title
        self.setup = setup          # dict, see write(): runs, command, omitted, ...
        self.blocks = []
        self.tables = {}            # csv file name -> DataFrame (what was written)
        self.figures = []
        parent = os.path.dirname(os.path.abspath(self.out))
        if not os.path.isdir(parent):
            raise OSError(f"cannot write the report: folder {parent} does not exist")
        os.makedirs(self.out, exist_ok=True)     # only the last level (its parent exists)
        if not os.access(self.out, os.W_OK):
            raise OSError(f"cannot write the report: folder {self.out} is not writable")
        # mark the folder as troef's at once: a report cut short (a full disk) can be
        # written again into it, once setup.json is there
        with self._writing("setup.json"):
            if not os.path.exists(os.path.join(self.out, "setup.json")):
                with open(os.path.join(self.out, "setup.json"), "w") as f:
                    f.write("{}\n")

    @contextmanager
    def _writing(self, fname):
        """A failed write (a full disk, a quota) is one line naming the file."""
        try:
            yield
        except OSError as e:
            from analyzer.storage import write_failed
            raise write_failed(os.path.join(self.out, fname), e) from None

    # -- blocks
    def section(self, title, text=""):
        self.blocks.append(("section", title, text))

    def note(self, text):
        self.blocks.append(("note", text))

    def table(self, name, df, title, caption="", columns=None):
        """A table without a figure: CSV plus its formatted rows in the page."""
        fname = f"{self.game}_{name}.csv"
        self._csv(fname, df)
        self.blocks.append(("table", title, fname, df, caption, columns))

    def figure(self, name, title, n_text, tables, draw, caption="", ncols=1, nrows=1,
               figsize=None, show=None, show_columns=None, sharey=False):
        """One PNG: ``draw(fig, axes)`` plots onto ``nrows × ncols`` axes; every axes must get
        an x and a y label (with units). ``tables`` (a DataFrame or {suffix: DataFrame}) are
        written as CSV beside it; ``show`` names the one rendered in the page (default: the
        only one, if short)."""
        if not n_text.startswith("n = "):
            raise ValueError(f"figure {name}: the sample size must read 'n = …'")
        p = plt()
        fig, axes = p.subplots(nrows, ncols, figsize=figsize or (FIG_W, FIG_H), dpi=DPI,
                               squeeze=False, sharey=sharey)
        flat = list(axes.ravel())
        draw(fig, flat[0] if len(flat) == 1 else flat)
        for ax in flat:
            if not ax.get_visible():
                continue
            if not ax.get_xlabel() or not ax.get_ylabel():
                raise ValueError(f"figure {name}: every panel needs labelled axes")
        fig.suptitle(title, fontsize=11, fontweight="bold", y=0.985)
        fig.text(0.5, 0.925, n_text, ha="center", va="top", fontsize=8.5, color="#333")
        fig.text(0.5, 0.005, self.footer(), ha="center", va="bottom", fontsize=6.5,
                 color="#777")
        fig.tight_layout(rect=(0, 0.025, 1, 0.91), pad=0.6)
        png = f"{self.game}_{name}.png"
        with self._writing(png):
            fig.savefig(os.path.join(self.out, png), dpi=DPI, metadata={"Software": None})
        p.close(fig)
        if not isinstance(tables, dict):
            tables = {"": tables}
        csvs = []
        for suffix, df in tables.items():
            fname = f"{self.game}_{name}{'_' + suffix if suffix else ''}.csv"
            self._csv(fname, df)
            csvs.append((fname, df))
        if show is None and len(csvs) == 1:
            show = next(iter(tables))
        shown = None
        if show is not None:
            df = tables[show]
            shown = (df, show_columns)
        f = Figure(name, title, n_text, png, csvs, caption, shown)
        self.figures.append(f)
        self.blocks.append(("figure", f))
        return f

    def footer(self):
        """One short line under every figure: what produced it."""
        s = self.setup
        bits = [f"troef report {self.game}"]
        if s.get("footer"):
            bits.append(s["footer"])
        if s.get("policy_text"):
            bits.append(s["policy_text"])
        if s.get("variants_text"):
            bits.append(s["variants_text"])
        bits.append(f"seed {s.get('seed')}")
        return " · ".join(bits)

    def _csv(self, fname, df):
        with self._writing(fname):
            df.to_csv(os.path.join(self.out, fname), index=False)
        self.tables[fname] = df

    # -- writers
    def write(self):
        with self._writing("setup.json"), open(os.path.join(self.out, "setup.json"), "w") as f:
            json.dump(self.setup, f, indent=2, default=_json_default)
            f.write("\n")
        with self._writing("index.html"), open(os.path.join(self.out, "index.html"), "w") as f:
            f.write(self._html())
        with self._writing("report.md"), open(os.path.join(self.out, "report.md"), "w") as f:
            f.write(self._markdown())
        return self

    def _setup_rows(self):
        s = self.setup
        rows = [("game", s["game_title"]), ("rules", s.get("rules_text") or "standard"),
                ("variants", s.get("variants_text") or "none"),
                ("policies", s.get("policy_text") or "–"), ("seed", str(s.get("seed"))),
                ("data", s.get("source_text", ""))]
        for run in s.get("runs", []):
            rows.append((f"run: {run['name']}", run["text"]))
        rows.append(("software", ", ".join(f"{k} {v}" for k, v in s.get("versions", {}).items())))
        return rows

    def _html(self):
        e = html.escape
        s = self.setup
        out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
               f"<title>{e(self.title)}</title>",
               "<style>body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,"
               "sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222;"
               "line-height:1.45}h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;"
               "border-bottom:1px solid #ddd}table{border-collapse:collapse;font-size:.85em;"
               "margin:.6em 0}td,th{border:1px solid #ddd;padding:.25em .55em;text-align:right}"
               "th{background:#f5f5f5}td:first-child,th:first-child{text-align:left}"
               "table.setup td{text-align:left}figure{margin:1.2em 0}img{max-width:100%;"
               "border:1px solid #eee}figcaption{font-size:.9em;color:#444}"
               "code,pre{background:#f5f5f5;padding:.1em .3em}pre{padding:.6em;overflow-x:auto}"
               ".note{background:#fff8e1;border-left:4px solid #f0c040;padding:.4em .8em}"
               ".csv{font-size:.85em}</style></head><body>",
               f"<h1>{e(self.title)}</h1>",
               "<h2>Set-up</h2>", '<table class="setup">']
        for k, v in self._setup_rows():
            out.append(f"<tr><th>{e(k)}</th><td>{e(str(v))}</td></tr>")
        out.append("</table>")
        out.append("<p>Reproduce this report (the same seed gives the same numbers on any "
                   "thread count):</p>")
        out.append(f"<pre>{e(s['command'])}</pre>")
        out.append('<p>The whole set-up as data: <a href="setup.json">setup.json</a>. Every table '
                   "carries the sample size <code>n</code> and 95% intervals "
                   "(<code>*_lo</code>/<code>*_hi</code>: Wilson for rates, normal for means, "
                   "Welch for differences).</p>")
        for o in s.get("omitted", []):
            out.append(f'<p class="note">Left out: {e(o)}</p>')
        for b in self.blocks:
            kind = b[0]
            if kind == "section":
                out.append(f"<h2>{e(b[1])}</h2>")
                if b[2]:
                    out.append(f"<p>{e(b[2])}</p>")
            elif kind == "note":
                out.append(f'<p class="note">{e(b[1])}</p>')
            elif kind == "figure":
                f = b[1]
                out.append(f'<figure id="{e(f.name)}"><img src="{e(f.png)}" alt="{e(f.title)}">')
                cap = f"{f.title} ({f.n_text})." + (f" {f.caption}" if f.caption else "")
                out.append(f"<figcaption>{e(cap)}</figcaption></figure>")
                out.append(self._html_links(f.csvs))
                if f.shown is not None:
                    out.append(self._html_table(*f.shown))
            elif kind == "table":
                _, title, fname, df, caption, columns = b
                out.append(f"<h3>{e(title)}</h3>")
                if caption:
                    out.append(f"<p>{e(caption)}</p>")
                out.append(self._html_links([(fname, df)]))
                out.append(self._html_table(df, columns))
        out.append("</body></html>")
        return "\n".join(out) + "\n"

    @staticmethod
    def _html_links(csvs):
        e = html.escape
        links = ", ".join(f'<a href="{e(fn)}">{e(fn)}</a> ({len(df):,} rows)' for fn, df in csvs)
        return f'<p class="csv">Table{"s" if len(csvs) > 1 else ""} (CSV): {links}</p>'

    @staticmethod
    def _html_table(df, columns=None):
        e = html.escape
        if len(df) == 0:
            return "<p><em>(no rows)</em></p>"
        if len(df) > MAX_SHOWN_ROWS:
            return f"<p><em>{len(df):,} rows: see the CSV.</em></p>"
        header, rows = display_rows(df, columns)
        out = ["<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr>"]
        for r in rows:
            out.append("<tr>" + "".join(f"<td>{e(v)}</td>" for v in r) + "</tr>")
        out.append("</table>")
        if len(df) > FOLD_ROWS:
            out = [f"<details><summary>the table ({len(df)} rows)</summary>"] + out + ["</details>"]
        return "\n".join(out)

    def _markdown(self):
        s = self.setup
        out = [f"# {self.title}", "", "## Set-up", "", "| | |", "|---|---|"]
        for k, v in self._setup_rows():
            out.append(f"| {k} | {_md(str(v))} |")
        out += ["", "Reproduce this report (the same seed gives the same numbers on any thread "
                "count):", "", "```", s["command"], "```", "",
                "The whole set-up as data: [setup.json](setup.json). Every table carries the "
                "sample size `n` and 95% intervals (`*_lo`/`*_hi`: Wilson for rates, normal for "
                "means, Welch for differences).", ""]
        for o in s.get("omitted", []):
            out += [f"> **Left out:** {o}", ""]
        for b in self.blocks:
            kind = b[0]
            if kind == "section":
                out += [f"## {b[1]}", ""]
                if b[2]:
                    out += [b[2], ""]
            elif kind == "note":
                out += [f"> {b[1]}", ""]
            elif kind == "figure":
                f = b[1]
                out += [f"![{f.title}]({f.png})", "",
                        f"*{f.title} ({f.n_text}).*" + (f" {f.caption}" if f.caption else ""), ""]
                out += [self._md_links(f.csvs), ""]
                if f.shown is not None:
                    out += [self._md_table(*f.shown), ""]
            elif kind == "table":
                _, title, fname, df, caption, columns = b
                out += [f"### {title}", ""]
                if caption:
                    out += [caption, ""]
                out += [self._md_links([(fname, df)]), "", self._md_table(df, columns), ""]
        return "\n".join(out).rstrip() + "\n"

    @staticmethod
    def _md_links(csvs):
        links = ", ".join(f"[{fn}]({fn}) ({len(df):,} rows)" for fn, df in csvs)
        return f"Table{'s' if len(csvs) > 1 else ''} (CSV): {links}"

    @staticmethod
    def _md_table(df, columns=None):
        if len(df) == 0:
            return "*(no rows)*"
        if len(df) > MAX_SHOWN_ROWS:
            return f"*{len(df):,} rows: see the CSV.*"
        header, rows = display_rows(df, columns)
        out = ["| " + " | ".join(_md(h) for h in header) + " |",
               "|" + "|".join("---" for _ in header) + "|"]
        out += ["| " + " | ".join(_md(v) for v in r) + " |" for r in rows]
        return "\n".join(out)


def _md(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def _json_default(o):
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)


# ---------------------------------------------------------------- set-up helpers

def versions():
    from importlib import metadata
    out = {}
    for pkg in ("troef", "numpy", "numba", "pandas", "matplotlib"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = "?"
    return out


def command_line(game, opts, out):
    """The exact ``troef report`` command (options in a fixed order, defaults written out)."""
    parts = ["troef", "report", game]
    for key, value in opts:
        if value is None or value is False:
            continue
        if isinstance(value, (list, tuple)):
            for v in value:
                parts += [f"--{key}", str(v)]
        elif value is True:
            parts.append(f"--{key}")
        else:
            parts += [f"--{key}", str(value)]
    parts += ["--out", str(out)]
    return " ".join(shlex.quote(p) for p in parts)


def policy_text(names):
    names = list(names)
    if len(set(names)) == 1:
        return f"{names[0]} in every seat"
    return "by seat: " + ", ".join(f"{i}={n}" for i, n in enumerate(names))


def variants_text(variants):
    if not variants:
        return ""
    return ", ".join(f"{k}={v}" if v not in ("", None) else str(k) for k, v in variants.items())


def check_count(deals):
    if deals is None:
        return None
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals < 1:
        raise ValueError(f"--deals must be a positive integer, got {deals!r}")
    if deals > MAX_REPORT_DEALS:
        raise ValueError(f"a report holds its tables in memory: at most {MAX_REPORT_DEALS:,} "
                         f"deals, got {deals:,}")
    return int(deals)


def load_results(path, game):
    """``--from``: the tidy table and run metadata of a results file of ``game``."""
    from analyzer.storage import read_parquet
    if os.path.isdir(path):
        from analyzer.stream import read_dataset
        df, meta = read_dataset(path)
    else:
        df, meta = read_parquet(path)
    if meta.get("game") != game:
        raise ValueError(f"{path} holds {meta.get('game') or 'no troef'} results, not {game}")
    if len(df) == 0:
        raise ValueError(f"{path} holds no deals")
    return df, meta


def make_setup(game, game_title, seed, policies, rules_text, variants, source_text, runs,
               command, omitted=(), meta=None, footer=""):
    """The set-up block of a report (also written as setup.json). ``footer``: the rules in a
    few words, printed under every figure."""
    return {
        "game": game, "game_title": game_title, "seed": seed, "footer": footer,
        "policies": list(policies), "policy_text": policy_text(policies),
        "rules_text": rules_text, "variants": dict(variants or {}),
        "variants_text": variants_text(variants or {}), "source_text": source_text,
        "runs": list(runs), "command": command, "omitted": list(omitted),
        "run_metadata": meta or {}, "versions": versions(),
    }


def run_entry(name, text, meta):
    """One simulation run of a report (``meta``: analyzer.storage.run_metadata)."""
    return {"name": name, "text": text, "metadata": meta}


def main_run(text, meta):
    """The main simulated run: ``text`` and then who played."""
    return run_entry("main", f"{text}; {policy_text(meta['policies'])}", meta)


def simulate(game, setup, n, seed, policies, threads):
    """One run of ``n`` units of a registry set-up: (result, tidy frame, run metadata)."""
    from analyzer.games import get
    entry = get(game)
    res = entry.simulate(setup, n, seed=seed, policies=policies, threads=threads)
    return res, entry.tidy(res), entry.metadata(res)


# ---------------------------------------------------------------- the data of a report

class Data:
    """What one report is built from (see :func:`gather`): ``df`` and ``meta`` (the main
    run), ``runs``, ``omitted``, ``extra`` (whatever else the game's report needs),
    ``command``, ``source`` and ``t0`` (when building started)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def report(self, title, rules_text, footer, variants=None):
        """The :class:`Report` of this data (``variants``: default the main run's)."""
        from analyzer.games import get
        meta = self.meta
        setup = make_setup(self.game, get(self.game).TITLE, meta.get("seed"),
                           meta.get("policies", []), rules_text,
                           meta.get("variants", {}) if variants is None else variants,
                           self.source, self.runs, self.command, self.omitted, meta,
                           footer=footer)
        setup["notes"] = list(self.notes)      # also said on stderr (troef report)
        return Report(self.out, self.game, title, setup)

    def finish(self, rep):
        """Write ``rep`` and note how long building it took."""
        rep.write()
        rep.seconds = time.perf_counter() - self.t0
        return rep


def gather(game, out, from_path, deals, policy, variants, seed, default_deals, read, run):
    """The data of ``game``'s report: the results file ``from_path`` (``--from``), handed to
    ``read(df, meta, from_path) -> (runs, omitted, extra)``, or a simulation with the
    defaults filled in (``deals`` default ``default_deals``, policy ``heuristic``, seed 0,
    checked): ``run(deals, policy, seed) -> (df, meta, runs, omitted, extra)``. The
    reproducing command line takes the game's report options in :data:`reports.OPTIONS`
    order."""
    t0 = time.perf_counter()
    notes = []
    if from_path is not None:
        df, meta = load_results(from_path, game)
        runs, omitted, extra = read(df, meta, from_path)
        if meta.get("complete") is False:       # a dataset folder still being written
            notes.append(f"{from_path} is incomplete ({meta.get('chunks_saved')} of "
                          f"{meta.get('chunks')} chunks saved): the report covers the saved "
                          f"deals only")
            omitted = [*omitted, *notes]
        command = command_line(game, [("from", from_path)], out)
        source = f"results file {from_path}"
    else:
        from fastsim.common import check_seed

        from . import OPTIONS
        deals = deals or default_deals
        policy = policy or "heuristic"
        seed = 0 if seed is None else seed
        check_seed(seed)
        df, meta, runs, omitted, extra = run(deals, policy, seed)
        given = {"players": meta.get("players"), "preset": meta.get("preset"), "policy": policy,
                 "variant": list(variants)}
        command = command_line(game, [("deals", deals)]
                               + [(k, given[k]) for k in OPTIONS[game]] + [("seed", seed)], out)
        source = "simulated for this report"
    return Data(game=game, out=out, df=df, meta=meta, runs=runs, omitted=list(omitted),
                notes=notes, extra=extra, command=command, source=source, t0=t0)
