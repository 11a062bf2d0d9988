//! Charts of a self-play analysis as one SVG picture of panels: wins, draws and
//! losses per side with their 95% Wilson intervals; the distribution of game
//! lengths; the branching factor over the game; how games ended; how active each
//! piece type was. Each panel is a group with `data-panel` (`results`, `lengths`,
//! `branching`, `endings`, `pieces`, `summary`), and each bar carries `data-bar`.

use std::fmt::Write;

use super::palette::{self, Colour};
use super::svg::{esc, num};
use crate::analyze::{Report, SideResult, SweepReport};

/// The width of a panel, and of the gap around it.
const PANEL: f64 = 440.0;
const GAP: f64 = 16.0;
/// Wins, draws and losses; bars of counts; the branching line.
const WIN: Colour = Colour(71);
const DRAW: Colour = Colour(248);
const LOSS: Colour = Colour(167);
const BAR: Colour = Colour(67);
const LINE: Colour = Colour(25);
const GRID: Colour = Colour(252);
const FONT: &str = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif";

/// One panel: what it draws, in its own coordinates from (0, 0), and its height.
struct Panel {
    name: &'static str,
    title: String,
    height: f64,
    body: String,
}

impl Panel {
    fn new(name: &'static str, title: impl Into<String>) -> Panel {
        Panel {
            name,
            title: title.into(),
            height: 0.0,
            body: String::new(),
        }
    }

    fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, text: &str) {
        let _ = writeln!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" fill=\"{}\">{}</text>",
            num(x),
            num(y),
            num(size),
            palette::TEXT.hex(),
            esc(text)
        );
    }

    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: Colour, extra: &str) {
        let _ = writeln!(
            self.body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"{extra}/>",
            num(x),
            num(y),
            num(w.max(0.0)),
            num(h.max(0.0)),
            fill.hex()
        );
    }

    fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), colour: Colour, width: f64) {
        let _ = writeln!(
            self.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
            num(x1),
            num(y1),
            num(x2),
            num(y2),
            colour.hex(),
            num(width)
        );
    }

    /// Its group, placed at `x`, `y`, with a frame and its title.
    fn placed(&self, x: f64, y: f64) -> String {
        format!(
            "<g data-panel=\"{}\" transform=\"translate({},{})\">\n\
             <rect width=\"{PANEL}\" height=\"{}\" fill=\"{}\" stroke=\"{}\"/>\n\
             <text x=\"12\" y=\"22\" font-size=\"14\" font-weight=\"bold\" fill=\"{}\">{}</text>\n{}</g>\n",
            self.name,
            num(x),
            num(y),
            num(self.height),
            palette::PAPER.hex(),
            Colour(250).hex(),
            palette::TEXT.hex(),
            esc(&self.title),
            self.body
        )
    }
}

/// The charts of an analysis, as one SVG picture.
pub fn report(report: &Report) -> String {
    let panels = [
        results(report),
        lengths(report),
        branching(report),
        endings(report),
        pieces(report),
        summary(report),
    ];
    // Two columns; each panel goes under the shorter one.
    let top = 48.0;
    let mut columns = [top, top];
    let mut body = String::new();
    for p in &panels {
        let c = usize::from(columns[1] < columns[0]);
        let x = GAP + c as f64 * (PANEL + GAP);
        body += &p.placed(x, columns[c]);
        columns[c] += p.height + GAP;
    }
    let (w, h) = (
        num(2.0 * PANEL + 3.0 * GAP),
        num(columns[0].max(columns[1])),
    );
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT}\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"{}\"/>\n",
        Colour(255).hex()
    );
    let title = format!(
        "{}: {} games, {} (seed {})",
        report.game, report.games, report.mode, report.seed
    );
    let _ = writeln!(
        s,
        "<text x=\"{GAP}\" y=\"30\" font-size=\"18\" font-weight=\"bold\" fill=\"{}\">{}</text>",
        palette::TEXT.hex(),
        esc(&title)
    );
    s += &body;
    s += "</svg>\n";
    s
}

/// A name cut to `most` characters, with an ellipsis when cut.
fn clipped(name: &str, most: usize) -> String {
    if name.chars().count() <= most {
        name.to_string()
    } else {
        name.chars().take(most - 1).chain(['…']).collect()
    }
}

fn pct(v: f64) -> String {
    format!("{:.0}%", 100.0 * v)
}

/// Wins, draws and losses per side as stacked bars; a whisker across the wins' edge
/// shows the wins' interval, one across the losses' edge the losses'.
fn results(report: &Report) -> Panel {
    let mut p = Panel::new("results", "Results (95% Wilson intervals)");
    let mut rows: Vec<&SideResult> = report.sides.iter().collect();
    rows.extend(report.first_player.iter());
    rows.extend(report.search_vs_random.iter());
    let (x0, width) = (110.0, PANEL - 130.0);
    let mut y = 44.0;
    for r in rows {
        p.text(12.0, y + 15.0, 12.0, "start", &r.side);
        let (w, d) = (r.wins.rate, r.draws.rate);
        for (name, from, share, colour) in [
            ("wins", 0.0, w, WIN),
            ("draws", w, d, DRAW),
            ("losses", w + d, r.losses.rate, LOSS),
        ] {
            let attr = format!(" data-bar=\"{name}\" data-side=\"{}\"", esc(&r.side));
            p.rect(x0 + from * width, y, share * width, 22.0, colour, &attr);
        }
        let whisker = |p: &mut Panel, low: f64, high: f64| {
            let (a, b) = (x0 + low * width, x0 + high * width);
            p.line((a, y + 11.0), (b, y + 11.0), palette::INK, 1.5);
            p.line((a, y + 5.0), (a, y + 17.0), palette::INK, 1.5);
            p.line((b, y + 5.0), (b, y + 17.0), palette::INK, 1.5);
        };
        whisker(&mut p, r.wins.low, r.wins.high);
        whisker(&mut p, 1.0 - r.losses.high, 1.0 - r.losses.low);
        let bare = |v: f64| format!("{:.0}", 100.0 * v);
        let words = format!(
            "wins {} [{}–{}] · draws {} · losses {} [{}–{}]",
            pct(r.wins.rate),
            bare(r.wins.low),
            bare(r.wins.high),
            pct(r.draws.rate),
            pct(r.losses.rate),
            bare(r.losses.low),
            bare(r.losses.high)
        );
        p.text(x0, y + 36.0, 11.0, "start", &words);
        y += 52.0;
    }
    let mut x = x0;
    for (name, colour) in [("wins", WIN), ("draws", DRAW), ("losses", LOSS)] {
        p.rect(x, y, 12.0, 12.0, colour, "");
        p.text(x + 16.0, y + 10.0, 11.0, "start", name);
        x += 70.0;
    }
    if let Some(swaps) = report.swaps {
        p.text(
            x,
            y + 10.0,
            11.0,
            "start",
            &format!("swap played in {swaps} games"),
        );
    }
    p.height = y + 26.0;
    p
}

/// The frame of a plot: its area, gridlines and labels of the vertical axis.
struct Plot {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    top: f64,
}

impl Plot {
    /// A plot in a panel below its title, with the vertical axis up to `top`.
    fn new(p: &mut Panel, top: f64, unit: &str) -> Plot {
        Self::framed(p, nice_top(top), 4, unit)
    }

    /// A plot of counts (games, moves): its gridlines fall on whole numbers.
    fn counts(p: &mut Panel, most: f64, unit: &str) -> Plot {
        let (top, parts) = whole_steps(most);
        Self::framed(p, top, parts, unit)
    }

    fn framed(p: &mut Panel, top: f64, parts: u32, unit: &str) -> Plot {
        let plot = Plot {
            x: 52.0,
            y: 54.0,
            w: PANEL - 72.0,
            h: 150.0,
            top,
        };
        for i in 0..=parts {
            let v = plot.top * f64::from(i) / f64::from(parts);
            let y = plot.y_of(v);
            p.line((plot.x, y), (plot.x + plot.w, y), GRID, 1.0);
            p.text(plot.x - 6.0, y + 4.0, 10.0, "end", &short(v));
        }
        p.text(12.0, plot.y - 12.0, 10.0, "start", unit);
        plot
    }

    fn y_of(&self, v: f64) -> f64 {
        self.y + self.h - v / self.top * self.h
    }

    /// The horizontal axis: labels at `ticks` (position 0..1, text).
    fn x_axis(&self, p: &mut Panel, ticks: &[(f64, String)], unit: &str) {
        let base = self.y + self.h;
        p.line((self.x, base), (self.x + self.w, base), palette::FRAME, 1.0);
        for (at, label) in ticks {
            let x = self.x + at * self.w;
            p.line((x, base), (x, base + 4.0), palette::FRAME, 1.0);
            p.text(x, base + 16.0, 10.0, "middle", label);
        }
        p.text(self.x + self.w, base + 32.0, 10.0, "end", unit);
    }
}

/// A round number at least `v`, for the top of an axis.
fn nice_top(v: f64) -> f64 {
    if v <= 0.0 {
        return 1.0;
    }
    let step = 10f64.powf(v.log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if m * step >= v {
            return m * step;
        }
    }
    10.0 * step
}

/// The top of an axis of counts up to `most`, and how many parts to cut it in, so
/// that every gridline is a whole number: the smallest step of 1, 2 or 5 times a power
/// of ten that needs at most five parts.
fn whole_steps(most: f64) -> (f64, u32) {
    let most = most.max(1.0);
    let mut power = 1.0;
    loop {
        for m in [1.0, 2.0, 5.0] {
            let step = m * power;
            let parts = (most / step).ceil();
            if parts <= 5.0 {
                return (step * parts.max(1.0), parts.max(1.0) as u32);
            }
        }
        power *= 10.0;
    }
}

/// A number for an axis: no decimals when whole.
fn short(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The game lengths as a histogram, with the mean and median marked.
fn lengths(report: &Report) -> Panel {
    let mut p = Panel::new("lengths", "Game length");
    let bins = &report.length_bins;
    let most = bins.iter().map(|b| b.games).max().unwrap_or(0) as f64;
    let plot = Plot::counts(&mut p, most, "games");
    let (lo, hi) = match (bins.first(), bins.last()) {
        (Some(a), Some(b)) => (a.from as f64, (b.to + 1) as f64),
        _ => (0.0, 1.0),
    };
    let at = |v: f64| ((v - lo) / (hi - lo)).clamp(0.0, 1.0);
    let bar_w = plot.w / bins.len().max(1) as f64;
    for (i, b) in bins.iter().enumerate() {
        let y = plot.y_of(b.games as f64);
        let attr = format!(" data-bar=\"{}-{}\"", b.from, b.to);
        let x = plot.x + i as f64 * bar_w;
        p.rect(x + 1.0, y, bar_w - 2.0, plot.y + plot.h - y, BAR, &attr);
    }
    let l = &report.length;
    for (v, label) in [(l.mean, "mean"), (l.median, "median")] {
        let x = plot.x + at(v) * plot.w;
        let dash = if label == "mean" {
            ""
        } else {
            " stroke-dasharray=\"4 3\""
        };
        let _ = writeln!(
            p.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{dash}/>",
            num(x),
            num(plot.y),
            num(x),
            num(plot.y + plot.h),
            palette::INK.hex()
        );
    }
    let ticks: Vec<(f64, String)> = [lo, (lo + hi) / 2.0, hi]
        .iter()
        .map(|&v| (at(v), format!("{v:.0}")))
        .collect();
    plot.x_axis(&mut p, &ticks, "plies");
    let words = format!(
        "mean {:.0} (solid), median {:.0} (dashed), sd {:.0}, from {} to {}",
        l.mean, l.median, l.stdev, l.min, l.max
    );
    p.text(12.0, plot.y + plot.h + 52.0, 11.0, "start", &words);
    p.height = plot.y + plot.h + 64.0;
    p
}

/// The mean number of legal moves over the game, ply by ply.
fn branching(report: &Report) -> Panel {
    let mut p = Panel::new("branching", "Branching factor over the game");
    let spans = &report.branching_by_ply;
    let most = spans.iter().map(|s| s.mean).fold(0.0, f64::max);
    let plot = Plot::new(&mut p, most, "legal moves");
    let last = spans.last().map_or(1, |s| s.to + 1) as f64;
    let x_of = |ply: f64| plot.x + ply / last * plot.w;
    let points: Vec<String> = spans
        .iter()
        .map(|s| {
            let mid = (s.from + s.to + 1) as f64 / 2.0;
            format!("{},{}", num(x_of(mid)), num(plot.y_of(s.mean)))
        })
        .collect();
    let _ = writeln!(
        p.body,
        "<polyline data-bar=\"branching\" points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\" stroke-linejoin=\"round\"/>",
        points.join(" "),
        LINE.hex()
    );
    let ticks: Vec<(f64, String)> = [0.0, last / 2.0, last]
        .iter()
        .map(|&v| (v / last, format!("{v:.0}")))
        .collect();
    plot.x_axis(&mut p, &ticks, "ply");
    let b = &report.branching;
    let words = format!(
        "by thirds of each game: opening {:.1}, middle {:.1}, end {:.1}; overall {:.1}",
        b.opening, b.middle, b.end, b.overall
    );
    p.text(12.0, plot.y + plot.h + 52.0, 11.0, "start", &words);
    p.height = plot.y + plot.h + 64.0;
    p
}

/// How games ended: one bar per reason, longest first.
fn endings(report: &Report) -> Panel {
    let mut p = Panel::new("endings", "How games ended");
    let games = report.games.max(1) as f64;
    let most = report.endings.iter().map(|e| e.count).max().unwrap_or(1) as f64;
    let (x0, width) = (12.0, PANEL - 150.0);
    let mut y = 40.0;
    for e in &report.endings {
        p.text(x0, y + 11.0, 11.0, "start", &e.reason);
        let w = e.count as f64 / most * width;
        let attr = format!(" data-bar=\"{}\"", esc(&e.reason));
        p.rect(x0, y + 16.0, w, 14.0, BAR, &attr);
        let words = format!("{} ({})", e.count, pct(e.count as f64 / games));
        p.text(x0 + w + 6.0, y + 27.0, 11.0, "start", &words);
        y += 36.0;
    }
    p.height = y + 8.0;
    p
}

/// Per piece type: its share of the moves as a bar, and its captures.
fn pieces(report: &Report) -> Panel {
    let mut p = Panel::new("pieces", "Piece activity: share of moves; captures");
    let most = report
        .pieces
        .iter()
        .map(|s| s.moved_share)
        .fold(0.0, f64::max)
        .max(1e-9);
    let (x0, width) = (120.0, 100.0);
    let mut y = 40.0;
    for s in &report.pieces {
        p.text(12.0, y + 11.0, 11.0, "start", &clipped(&s.name, 16));
        let w = s.moved_share / most * width;
        let attr = format!(" data-bar=\"{}\"", esc(&s.name));
        p.rect(x0, y + 1.0, w, 12.0, BAR, &attr);
        p.text(
            x0 + width + 30.0,
            y + 11.0,
            10.0,
            "end",
            &pct(s.moved_share),
        );
        let words = format!(
            "took {}, taken {} ({:.2}/game)",
            s.captures, s.captured, s.captured_per_game
        );
        p.text(PANEL - 12.0, y + 11.0, 10.0, "end", &words);
        y += 18.0;
    }
    p.height = y + 10.0;
    p
}

/// The run itself: how the games were played, and how fast.
fn summary(report: &Report) -> Panel {
    let mut p = Panel::new("summary", "The run");
    let mut lines = vec![
        format!("{} games, {}", report.games, report.mode),
        format!(
            "seed {}, at most {} plies a game",
            report.seed, report.max_plies
        ),
    ];
    if report.opening_plies > 0 {
        lines.push(format!(
            "first {} plies random among sound moves",
            report.opening_plies
        ));
    }
    if let Some(t) = &report.timing {
        lines.push(format!(
            "{:.1} s on {} thread{}: {:.1} games/s",
            t.seconds,
            t.threads,
            if t.threads == 1 { "" } else { "s" },
            t.games_per_second
        ));
    }
    let mut y = 44.0;
    for l in &lines {
        p.text(12.0, y, 12.0, "start", l);
        y += 18.0;
    }
    p.height = y + 4.0;
    p
}

/// A parameter swept: the first player's score against the parameter's value, each
/// point with its 95% interval as a bar, and the even score (0.5) as a dashed line.
/// One panel, `data-panel="sweep"`; each point is a `circle` with `data-value`.
pub fn sweep(report: &SweepReport) -> String {
    let mut p = Panel::new(
        "sweep",
        format!(
            "First player's score by {} (95% intervals)",
            report.parameter
        ),
    );
    let plot = Plot::new(&mut p, 1.0, "score");
    // The quarter lines read as quarters (the axes' labels keep one decimal).
    p.body = p
        .body
        .replace(">0.2</text>", ">0.25</text>")
        .replace(">0.8</text>", ">0.75</text>");
    let points = &report.points;
    let (lo, hi) = match (points.first(), points.last()) {
        (Some(a), Some(b)) if b.value > a.value => (a.value as f64, b.value as f64),
        (Some(a), _) => (a.value as f64 - 1.0, a.value as f64 + 1.0),
        _ => (0.0, 1.0),
    };
    let x_of = |v: f64| plot.x + (v - lo) / (hi - lo) * plot.w;
    let even = plot.y_of(0.5);
    let _ = writeln!(
        p.body,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>",
        num(plot.x),
        num(even),
        num(plot.x + plot.w),
        num(even),
        palette::FRAME.hex()
    );
    let line: Vec<String> = points
        .iter()
        .map(|pt| {
            format!(
                "{},{}",
                num(x_of(pt.value as f64)),
                num(plot.y_of(pt.score.score.value))
            )
        })
        .collect();
    let _ = writeln!(
        p.body,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
        line.join(" "),
        LINE.hex()
    );
    for pt in points {
        let x = x_of(pt.value as f64);
        let s = &pt.score.score;
        let (top, bottom) = (plot.y_of(s.high), plot.y_of(s.low));
        p.line((x, top), (x, bottom), palette::INK, 1.5);
        p.line((x - 4.0, top), (x + 4.0, top), palette::INK, 1.5);
        p.line((x - 4.0, bottom), (x + 4.0, bottom), palette::INK, 1.5);
        let _ = writeln!(
            p.body,
            "<circle data-value=\"{}\" data-score=\"{:.4}\" cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/>",
            pt.value,
            s.value,
            num(x),
            num(plot.y_of(s.value)),
            WIN.hex()
        );
    }
    let count = points.len().clamp(1, 9);
    let ticks: Vec<(f64, String)> = (0..count)
        .map(|i| {
            let v = if count == 1 {
                lo
            } else {
                lo + (hi - lo) * i as f64 / (count - 1) as f64
            };
            ((v - lo) / (hi - lo), short(v))
        })
        .collect();
    plot.x_axis(&mut p, &ticks, &report.parameter);
    let words = format!(
        "{}, seed {}; the dashed line is an even game (0.5)",
        report.mode, report.seed
    );
    p.text(12.0, plot.y + plot.h + 52.0, 11.0, "start", &words);
    p.height = plot.y + plot.h + 64.0;
    let (w, h) = (num(PANEL + 2.0 * GAP), num(48.0 + p.height + GAP));
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT}\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"{}\"/>\n",
        Colour(255).hex()
    );
    let title = format!("{}: sweep of {}", report.game, report.parameter);
    let _ = writeln!(
        s,
        "<text x=\"{GAP}\" y=\"30\" font-size=\"18\" font-weight=\"bold\" fill=\"{}\">{}</text>",
        palette::TEXT.hex(),
        esc(&title)
    );
    s += &p.placed(GAP, 48.0);
    s += "</svg>\n";
    s
}

#[cfg(test)]
mod tests {
    use super::whole_steps;

    /// Every gridline of a count axis is a whole number, the axis reaches the count,
    /// and it is cut in at most five parts (ten games: 0, 2, 4, 6, 8, 10, not 2.5).
    #[test]
    fn count_axes_have_whole_gridlines() {
        assert_eq!(whole_steps(10.0), (10.0, 5));
        assert_eq!(whole_steps(7.0), (8.0, 4));
        assert_eq!(whole_steps(0.0), (1.0, 1));
        for most in 1..2000 {
            let (top, parts) = whole_steps(f64::from(most));
            assert!(top >= f64::from(most) && (1..=5).contains(&parts));
            let step = top / f64::from(parts);
            assert_eq!(step, step.round(), "{most}: step {step}");
        }
    }
}
