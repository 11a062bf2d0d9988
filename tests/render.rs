//! Pictures: every shipped game drawn as SVG, read back with an XML parser and
//! checked against the position (one element per square, one per piece, hands,
//! stack heights, marks), and the palette's contrast rule checked in numbers.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use varsand::render::diagram::{self, Reach};
use varsand::render::palette::{self, Colour, contrast};
use varsand::render::{BoardOptions, svg};
use varsand::rules::{Cell, EMPTY, Side, side_of};
use varsand::{Position, Rules};

fn rules_of(path: &Path) -> Arc<Rules> {
    let text = std::fs::read_to_string(path).expect("read the rule file");
    varsand::load_rules(&text).unwrap_or_else(|_| panic!("{} checks", path.display()))
}

fn variant(name: &str) -> Arc<Rules> {
    rules_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("variants/{name}.var")))
}

/// What a picture says, read back from its XML.
#[derive(Debug, Default)]
struct Read {
    /// Square name → how many square elements carry it.
    squares: HashMap<String, usize>,
    /// Square name → the piece symbol and side drawn there.
    pieces: HashMap<String, (String, String)>,
    /// (player, symbol) → the count drawn in the hand.
    hands: HashMap<(String, String), u32>,
    /// Square name → the square's fill.
    fills: HashMap<String, String>,
    /// Square name → the badge number drawn on its piece.
    badges: HashMap<String, String>,
}

/// Parses a picture and collects its data attributes; fails on XML that does not
/// parse or on a piece counted twice.
fn read(svg_text: &str) -> Read {
    let doc = roxmltree::Document::parse(svg_text).expect("the SVG parses as XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let mut out = Read::default();
    for node in doc.descendants().filter(roxmltree::Node::is_element) {
        let square = node.attribute("data-square");
        match (
            node.attribute("data-piece"),
            square,
            node.attribute("data-hand"),
        ) {
            (Some(piece), Some(sq), None) => {
                let side = node.attribute("data-side").expect("a piece has a side");
                let old = out
                    .pieces
                    .insert(sq.to_string(), (piece.to_string(), side.to_string()));
                assert!(old.is_none(), "two pieces drawn on {sq}");
                // A badge is a pill (a rounded rect) with its number; a token's own
                // text (a letter or glyph; none for a drawing) comes before it.
                let has_badge = node
                    .descendants()
                    .any(|n| n.has_tag_name("rect") && n.attribute("rx") == Some("7.5"));
                let badge = node
                    .descendants()
                    .filter(|n| n.has_tag_name("text"))
                    .filter_map(|n| n.text())
                    .next_back()
                    .filter(|_| has_badge);
                if let Some(b) = badge {
                    out.badges.insert(sq.to_string(), b.to_string());
                }
            }
            (Some(piece), None, Some(hand)) => {
                let count = node
                    .attribute("data-count")
                    .expect("a hand piece has a count");
                let old = out.hands.insert(
                    (hand.to_string(), piece.to_string()),
                    count.parse().expect("a count is a number"),
                );
                assert!(old.is_none(), "{piece} drawn twice in {hand}'s hand");
            }
            (None, Some(sq), None) => {
                *out.squares.entry(sq.to_string()).or_default() += 1;
                if let Some(fill) = node.attribute("fill") {
                    out.fills.insert(sq.to_string(), fill.to_string());
                }
            }
            (None, None, None) => {}
            other => panic!("an element with a mix of data attributes: {other:?}"),
        }
    }
    out
}

/// Checks a picture of a position against the position: every square once, every
/// piece on its square with its symbol and side, every piece in hand with its count.
fn check_picture(pos: &Position, opts: &BoardOptions) -> Read {
    let rules = pos.rules();
    let geo = rules.geometry();
    let picture = read(&svg::position(pos, opts));
    let what = || format!("{} at {}", rules.name(), pos.fen());
    assert_eq!(picture.squares.len(), geo.len(), "{}", what());
    assert!(picture.squares.values().all(|&n| n == 1), "{}", what());
    let mut on_board = 0;
    for cell in Cell::all(geo.len()) {
        let name = geo.name(cell);
        assert!(
            picture.squares.contains_key(name),
            "{} has no {name}",
            what()
        );
        let piece = pos.piece_at(cell);
        if piece == EMPTY {
            continue;
        }
        on_board += 1;
        let (symbol, side) = picture.pieces.get(name).unwrap_or_else(|| {
            panic!("{}: no piece drawn on {name}", what());
        });
        assert_eq!(*symbol, rules.code_symbol(piece), "{} on {name}", what());
        assert_eq!(*side, rules.players()[side_of(piece)].name, "{}", what());
        let height = pos.height_at(cell);
        let badge = picture.badges.get(name).cloned();
        let wanted = (height != 1).then(|| height.to_string());
        assert_eq!(badge, wanted, "{}: the stack height on {name}", what());
    }
    assert_eq!(picture.pieces.len(), on_board, "{}", what());
    let mut held = 0;
    for side in Side::BOTH {
        for kind in 0..rules.pieces().len() {
            let n = pos.in_hand(side, kind);
            if n == 0 {
                continue;
            }
            held += 1;
            let key = (
                rules.players()[side].name.clone(),
                rules.code_symbol(varsand::rules::code(kind, side)),
            );
            assert_eq!(picture.hands.get(&key), Some(&u32::from(n)), "{}", what());
        }
    }
    assert_eq!(picture.hands.len(), held, "{}", what());
    picture
}

#[test]
fn every_shipped_game_is_drawn_square_by_square_and_piece_by_piece() {
    for path in common::game_files() {
        let rules = rules_of(&path);
        let pos = Position::start(rules);
        check_picture(&pos, &BoardOptions::of(&pos));
        // Random games reach captures, hands, promotions, stacks and cleared terrain.
        let mut rng = common::Rng::new(7);
        for _ in 0..3 {
            let mut game = pos.clone();
            for _ in 0..40 {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                game.make(moves[rng.below(moves.len())]);
            }
            check_picture(&game, &BoardOptions::of(&game));
            let flipped = BoardOptions {
                flipped: true,
                ..BoardOptions::of(&game)
            };
            check_picture(&game, &flipped);
        }
    }
}

#[test]
fn a_hand_shows_each_kind_held_with_its_count() {
    let mut pos = Position::start(variant("crazyhouse"));
    for m in ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a2", "a1a2"] {
        pos.play(m).expect("legal");
    }
    let picture = check_picture(&pos, &BoardOptions::of(&pos));
    assert_eq!(picture.hands.get(&("white".into(), "P".into())), Some(&1));
    assert_eq!(picture.hands.get(&("black".into(), "p".into())), Some(&2));
    assert_eq!(picture.hands.get(&("white".into(), "Q".into())), Some(&1));
}

#[test]
fn a_stack_carries_its_height() {
    let rules = variant("monkey_queen");
    let pos = Position::start(rules);
    let picture = check_picture(&pos, &BoardOptions::of(&pos));
    assert!(
        picture.badges.values().any(|b| b == "20"),
        "the start's stacks of 20 show their height: {:?}",
        picture.badges
    );
}

#[test]
fn the_last_move_and_highlighted_squares_are_tinted() {
    let rules = variant("chess");
    let mut pos = Position::start(rules.clone());
    pos.play("e2e4").expect("legal");
    let geo = rules.geometry();
    let cell = |n: &str| geo.parse_square(n).expect("a square");
    let opts = BoardOptions {
        highlighted: vec![cell("g1"), cell("f3")],
        ..BoardOptions::of(&pos)
    };
    let picture = check_picture(&pos, &opts);
    let fill = |n: &str| picture.fills[n].clone();
    // e2 is light, e4 light; g1 dark, f3 light.
    assert_eq!(fill("e2"), palette::LAST_MOVE.light.hex());
    assert_eq!(fill("e4"), palette::LAST_MOVE.light.hex());
    assert_eq!(fill("g1"), palette::HIGHLIGHT.dark.hex());
    assert_eq!(fill("f3"), palette::HIGHLIGHT.light.hex());
    assert_eq!(fill("d4"), palette::SQUARES.dark.hex());
    assert_eq!(fill("d5"), palette::SQUARES.light.hex());
    // Without the last move in the options, nothing is marked.
    let plain = check_picture(&pos, &BoardOptions::default());
    assert_eq!(plain.fills["e4"], palette::SQUARES.light.hex());
}

#[test]
fn a_checked_royal_piece_is_tinted() {
    let mut pos = Position::start(variant("chess"));
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        pos.play(m).expect("legal");
    }
    let picture = check_picture(&pos, &BoardOptions::default());
    assert_eq!(picture.fills["e1"], palette::CHECK.dark.hex());
}

#[test]
fn a_picture_after_the_pie_rule_says_the_sides_were_swapped() {
    let mut pos = Position::start(variant("monkey_queen"));
    let first = pos.legal_moves()[0];
    pos.make(first);
    let before = svg::position(&pos, &BoardOptions::default());
    assert!(!before.contains("swapped"), "no swap yet");
    pos.play("swap")
        .expect("the second player may take the first move over");
    let after = svg::position(&pos, &BoardOptions::default());
    assert!(
        after.contains("(sides swapped by the pie rule)"),
        "the title says so: {}",
        &after[..after.len().min(600)]
    );
}

#[test]
fn terrain_is_drawn_with_its_colour_not_its_letter() {
    let rules = variant("jungles_mountains");
    let pos = Position::start(rules.clone());
    let text = svg::position(&pos, &BoardOptions::default());
    let picture = check_picture(&pos, &BoardOptions::default());
    let looks = varsand::render::terrain_looks(&rules);
    let geo = rules.geometry();
    for cell in Cell::all(geo.len()) {
        if let Some(t) = pos.terrain_at(cell) {
            let dark = geo.cells[cell].dark;
            let want = palette::TERRAIN[looks[t].colour].on(dark).hex();
            assert_eq!(picture.fills[geo.name(cell)], want);
        }
    }
    // The two kinds look different, and the legend names them.
    assert_ne!(looks[0].pattern, looks[1].pattern);
    assert!(text.contains("jungle (g)") && text.contains("mountain (M)"));
}

/// Where a square is drawn: its element's x and y.
fn square_xy(svg_text: &str, name: &str) -> (f64, f64) {
    let doc = roxmltree::Document::parse(svg_text).expect("parses");
    let node = doc
        .descendants()
        .find(|n| n.attribute("data-square") == Some(name) && n.attribute("data-piece").is_none())
        .expect("the square is drawn");
    let at = |a: &str| {
        node.attribute(a)
            .expect("x and y")
            .parse::<f64>()
            .expect("a number")
    };
    (at("x"), at("y"))
}

#[test]
fn the_first_rank_is_at_the_bottom_unless_flipped() {
    let pos = Position::start(variant("chess"));
    let plain = svg::position(&pos, &BoardOptions::default());
    let (a1, h8) = (square_xy(&plain, "a1"), square_xy(&plain, "h8"));
    assert!(a1.0 < h8.0 && a1.1 > h8.1, "a1 bottom left: {a1:?} {h8:?}");
    let flipped = svg::position(
        &pos,
        &BoardOptions {
            flipped: true,
            ..BoardOptions::default()
        },
    );
    let (a1, h8) = (square_xy(&flipped, "a1"), square_xy(&flipped, "h8"));
    assert!(a1.0 > h8.0 && a1.1 < h8.1, "a1 top right: {a1:?} {h8:?}");
}

#[test]
fn names_are_escaped() {
    let source = "game \"Rooks & <Knights>\"\nboard 3 x 3\npiece King K { moves \"K\" royal }\n\
                  end { checkmate loss }\nsetup \"k2/3/2K w - - 0 1\"";
    let rules = varsand::load_rules(source).expect("checks");
    let pos = Position::start(rules);
    let text = svg::position(&pos, &BoardOptions::default());
    assert!(text.contains("Rooks &amp; &lt;Knights&gt;"));
    check_picture(&pos, &BoardOptions::default());
}

// ---- the contrast rule --------------------------------------------------------------

#[test]
fn contrast_ratios_are_computed_as_wcag_defines_them() {
    assert!((contrast(Colour(16), Colour(231)) - 21.0).abs() < 1e-9);
    assert!((contrast(Colour(231), Colour(231)) - 1.0).abs() < 1e-9);
    // #767676 on white is the classic 4.54:1.
    assert_eq!(Colour(243).rgb(), [0x76, 0x76, 0x76]);
    assert!((contrast(Colour(243), Colour(231)) - 4.54).abs() < 0.01);
    assert_eq!(Colour(223).hex(), "#ffd7af");
    assert_eq!(Colour(4).rgb(), [0, 0, 238]);
}

#[test]
fn both_sides_pieces_stand_out_on_every_square_colour() {
    let squares = palette::every_square_colour();
    assert!(squares.len() >= 2 * (4 + palette::ZONES.len() + palette::TERRAIN.len()));
    for side in Side::BOTH {
        let c = palette::side(side);
        for &sq in &squares {
            let r = contrast(c.outline, sq);
            assert!(
                r >= 4.5,
                "side {side:?}: outline {} on {} is {r:.2}:1",
                c.outline.hex(),
                sq.hex()
            );
        }
        let r = contrast(c.letter, c.token);
        assert!(r >= 4.5, "side {side:?}: letter on token is {r:.2}:1");
        // Pieces in hand stand in a tray.
        assert!(contrast(c.outline, palette::TRAY) >= 4.5);
    }
    // The two sides' tokens are told apart.
    assert!(contrast(palette::FIRST_SIDE.token, palette::SECOND_SIDE.token) >= 4.5);
}

#[test]
fn ink_reads_on_what_it_is_drawn_on() {
    for sq in palette::every_square_colour() {
        let r = contrast(palette::INK, sq);
        assert!(r >= 4.5, "ink on {} is {r:.2}:1", sq.hex());
    }
    assert!(contrast(palette::TEXT, palette::PAPER) >= 4.5);
    assert!(contrast(palette::BADGE_TEXT, palette::BADGE) >= 4.5);
}

#[test]
fn square_colours_are_told_apart() {
    // Light and dark squares differ in every tint, and no two tints share a colour.
    let squares = palette::every_square_colour();
    for pair in squares.chunks(2) {
        assert_ne!(pair[0], pair[1]);
    }
    let mut unique = squares.clone();
    unique.sort_by_key(|c| c.0);
    unique.dedup();
    assert_eq!(unique.len(), squares.len(), "{squares:?}");
}

// ---- charts of an analysis ------------------------------------------------------------

fn random_report(variant_name: &str, games: usize) -> varsand::analyze::Report {
    let opts = varsand::analyze::Options {
        games,
        limits: None,
        threads: 1,
        seed: 3,
        config: varsand::analyze::GameConfig {
            max_plies: 400,
            ..Default::default()
        },
        progress: false,
        versus_random: false,
    };
    varsand::analyze::analyze(&variant(variant_name), &opts)
}

#[test]
fn the_report_bins_every_game_and_every_position() {
    let report = random_report("monkey_queen", 30);
    let binned: u64 = report.length_bins.iter().map(|b| b.games).sum();
    assert_eq!(binned, 30);
    assert!(report.length_bins.len() <= 25);
    let first = report.length_bins.first().expect("bins");
    let last = report.length_bins.last().expect("bins");
    assert_eq!(first.from, report.length.min);
    assert!(last.from <= report.length.max && report.length.max <= last.to);
    // Every position of every game is counted once in the branching curve.
    let positions: u64 = report.branching_by_ply.iter().map(|s| s.positions).sum();
    let plies = (report.length.mean * 30.0).round() as u64;
    assert_eq!(positions, plies);
    assert!(report.branching_by_ply.len() <= 25);
    assert_eq!(report.branching_by_ply[0].from, 0);
    // Monkey Queen's first move has 33 choices.
    assert!(report.branching_by_ply[0].mean > 30.0);
}

#[test]
fn the_chart_has_a_panel_per_question_and_a_bar_per_figure() {
    let report = random_report("chess", 12);
    let text = varsand::render::chart::report(&report);
    let doc = roxmltree::Document::parse(&text).expect("the chart parses");
    let panel = |name: &str| {
        doc.descendants()
            .find(|n| n.attribute("data-panel") == Some(name))
            .unwrap_or_else(|| panic!("a {name} panel"))
    };
    let bars = |name: &str| {
        panel(name)
            .descendants()
            .filter(|n| n.attribute("data-bar").is_some())
            .count()
    };
    assert_eq!(bars("results"), 3 * report.sides.len());
    assert_eq!(bars("lengths"), report.length_bins.len());
    assert_eq!(bars("branching"), 1);
    assert_eq!(bars("endings"), report.endings.len());
    assert_eq!(bars("pieces"), report.pieces.len());
    panel("summary");
    // Each side's three bars fill the row: their widths add up to the row's.
    let widths: Vec<f64> = panel("results")
        .descendants()
        .filter(|n| n.attribute("data-side") == Some("white"))
        .map(|n| {
            n.attribute("width")
                .expect("a width")
                .parse()
                .expect("a number")
        })
        .collect();
    assert_eq!(widths.len(), 3);
    assert!(
        (widths.iter().sum::<f64>() - 310.0).abs() < 0.05,
        "{widths:?}"
    );
}

// ---- the README's pictures ------------------------------------------------------------

/// Each shipped game's start position, as the README shows it: (file, picture).
fn start_pictures() -> Vec<(std::path::PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    common::game_files()
        .into_iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("variants")))
        .map(|path| {
            let stem = path
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .to_string();
            let pos = Position::start(rules_of(&path));
            let picture = svg::position(&pos, &BoardOptions::default());
            (root.join(format!("docs/img/start_{stem}.svg")), picture)
        })
        .collect()
}

/// The README's analysis chart: chess, 40 games of self-play at depth 2, seed 1.
fn readme_chart() -> String {
    let opts = varsand::analyze::Options {
        games: 40,
        limits: Some(varsand::search::Limits::depth(2)),
        threads: 2,
        seed: 1,
        config: Default::default(),
        progress: false,
        versus_random: false,
    };
    let mut report = varsand::analyze::analyze(&variant("chess"), &opts);
    // Without the time it took, the picture is the same on every machine.
    report.timing = None;
    varsand::render::chart::report(&report)
}

#[test]
fn the_readme_pictures_are_the_renderers() {
    assert_up_to_date(start_pictures(), "regenerate_readme_pictures");
}

/// Each file holds what is drawn for it, or the test fails naming the ignored test
/// that draws them again.
fn assert_up_to_date(files: Vec<(std::path::PathBuf, String)>, regenerate: &str) {
    for (path, picture) in files {
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == picture,
            "{} is out of date: `cargo test --profile checked --test render -- --ignored \
             {regenerate}` draws it again",
            path.display()
        );
    }
}

/// Draws the README's pictures again: every shipped game's start position and the
/// analysis chart (40 games of chess, about 10 seconds).
#[test]
#[ignore]
fn regenerate_readme_pictures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(root.join("docs/img")).expect("docs/img");
    for (path, picture) in start_pictures() {
        std::fs::write(&path, picture).expect("write a picture");
    }
    std::fs::write(root.join("docs/img/analysis_chess.svg"), readme_chart()).expect("write");
}

// ---- pieces: pictures and movement diagrams -------------------------------------------

/// The tooltip of the piece drawn on a square.
fn tooltip_on(doc: &roxmltree::Document, square: &str) -> String {
    let piece = doc
        .descendants()
        .find(|n| n.attribute("data-piece").is_some() && n.attribute("data-square") == Some(square))
        .unwrap_or_else(|| panic!("no piece on {square}"));
    let title = piece.descendants().find(|n| n.has_tag_name("title"));
    title.and_then(|t| t.text()).unwrap_or_default().to_string()
}

#[test]
fn pieces_are_drawn_as_their_image_or_glyph_with_their_moves_as_tooltip() {
    let text = svg::position(&Position::start(variant("chess")), &BoardOptions::default());
    let doc = roxmltree::Document::parse(&text).expect("XML");
    for piece in doc
        .descendants()
        .filter(|n| n.attribute("data-piece").is_some() && n.attribute("data-square").is_some())
    {
        let drawn = piece.descendants().any(|n| {
            n.has_tag_name("g")
                && n.attribute("transform")
                    .is_some_and(|t| t.contains("scale"))
        });
        assert!(
            drawn,
            "{:?} is not drawn as its image",
            piece.attribute("data-square")
        );
        assert!(
            !piece.descendants().any(|n| n.has_tag_name("text")),
            "a letter over an image"
        );
    }
    let knight = tooltip_on(&doc, "g1");
    assert!(
        knight.starts_with("Knight: ") && knight.contains("knight's leap"),
        "{knight}"
    );
    let king = tooltip_on(&doc, "e1");
    assert!(king.contains("royal"), "{king}");

    // Glyphs: the same for both players, or each player's own.
    let text = svg::position(&Position::start(variant("shogi")), &BoardOptions::default());
    for glyph in ["飛", "角", "歩", "王", "玉"] {
        assert!(
            text.contains(&format!(">{glyph}</text>")),
            "no {glyph} in shogi"
        );
    }
    let text = svg::position(
        &Position::start(variant("xiangqi")),
        &BoardOptions::default(),
    );
    for glyph in ["帥", "將", "炮", "砲"] {
        assert!(
            text.contains(&format!(">{glyph}</text>")),
            "no {glyph} in xiangqi"
        );
    }
    // Two symbols for a compound piece.
    let text = svg::position(
        &Position::start(variant("capablanca")),
        &BoardOptions::default(),
    );
    assert!(
        text.contains(">♜♞</text>") && text.contains(">♗♘</text>"),
        "capablanca's glyphs"
    );
}

/// What a piece's diagram marks on each square, by name.
fn reach(rules: &Arc<Rules>, piece: &str) -> HashMap<String, Reach> {
    let kind = diagram::find_piece(rules, piece).expect("a piece of the game");
    let d = diagram::diagram(rules, kind);
    (0..rules.geometry.cells.len())
        .filter_map(|c| {
            let r = d.reach[c]?;
            Some((rules.geometry.name(Cell::new(c)).to_string(), r))
        })
        .collect()
}

fn squares_with(map: &HashMap<String, Reach>, kind: Reach) -> Vec<String> {
    let mut v: Vec<String> = map
        .iter()
        .filter(|&(_, &r)| r == kind)
        .map(|(s, _)| s.clone())
        .collect();
    v.sort();
    v
}

#[test]
fn a_movement_diagram_is_what_the_move_generator_gives() {
    let chess = variant("chess");
    let knight = reach(&chess, "Knight");
    assert_eq!(
        squares_with(&knight, Reach::Both),
        ["c3", "c5", "d2", "d6", "f2", "f6", "g3", "g5"]
    );
    assert_eq!(knight.len(), 8);
    assert_eq!(squares_with(&reach(&chess, "R"), Reach::Both).len(), 14);
    // The pawn from e4, unmoved: steps (one or two) only, captures only diagonally.
    let pawn = reach(&chess, "Pawn");
    assert_eq!(squares_with(&pawn, Reach::Move), ["e5", "e6"]);
    assert_eq!(squares_with(&pawn, Reach::Capture), ["d5", "f5"]);
    // Xiangqi's cannon slides to move and captures only by jumping a piece: next to
    // it, there is no room for one.
    let cannon = reach(&variant("xiangqi"), "Cannon");
    assert_eq!(squares_with(&cannon, Reach::Move), ["d5", "e4", "e6", "f5"]);
    assert_eq!(
        squares_with(&cannon, Reach::MoveAndHopCapture).len(),
        17 - 4 - 2 + 2
    );
    assert!(squares_with(&cannon, Reach::Capture).is_empty());
    // Xiangqi's general, shown from the palace's centre, takes the other general along
    // its file (a capture of one kind of piece only: each kind is tried).
    let general = reach(&variant("xiangqi"), "General");
    assert_eq!(
        squares_with(&general, Reach::Both),
        ["d2", "e1", "e3", "f2"]
    );
    assert_eq!(squares_with(&general, Reach::Capture).len(), 7, "e4 to e10");
    // Janggi's moves and captures only by jumping.
    let cannon = reach(&variant("janggi"), "Cannon");
    assert!(!squares_with(&cannon, Reach::Hop).is_empty());
    assert_eq!(squares_with(&cannon, Reach::Hop).len(), cannon.len());
    // A piece of the second player alone is shown from its side: forward is down
    // the board, and the letter is its own (`k`, not `K`).
    let mk = variant("monkey_king");
    let goblin = reach(&mk, "Goblin King");
    assert_eq!(goblin.len(), 8);
    assert!(
        diagram::find_piece(&mk, "Knight").is_err(),
        "four pieces are named Knight"
    );
    assert!(diagram::find_piece(&mk, "n").is_ok());
}

#[test]
fn every_piece_of_every_shipped_game_has_a_diagram() {
    for path in common::game_files() {
        let rules = rules_of(&path);
        for kind in 0..rules.pieces.len() {
            let d = diagram::diagram(&rules, kind);
            let text = diagram::svg(&rules, &d);
            let doc = roxmltree::Document::parse(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let marks = doc
                .descendants()
                .filter(|n| {
                    n.attribute("data-reach").is_some() && n.attribute("data-square").is_some()
                })
                .count();
            assert_eq!(
                marks,
                d.reach.iter().flatten().count(),
                "{}",
                path.display()
            );
        }
    }
}

/// The shipped games: (the file's stem, its path).
fn shipped_games() -> Vec<(String, std::path::PathBuf)> {
    common::game_files()
        .into_iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("variants")))
        .map(|path| {
            let stem = path.file_stem().expect("a name");
            (stem.to_string_lossy().to_string(), path)
        })
        .collect()
}

/// Every piece diagram the rules pages show: (file, picture), one folder per game.
fn piece_diagrams() -> Vec<(std::path::PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for (stem, path) in shipped_games() {
        let rules = rules_of(&path);
        for kind in 0..rules.pieces.len() {
            let picture = diagram::svg(&rules, &diagram::diagram(&rules, kind));
            let file = root.join(format!(
                "docs/img/pieces/{stem}/{}",
                diagram_file(&rules, kind)
            ));
            out.push((file, picture));
        }
    }
    out
}

/// A diagram's file name: the piece's number in its file and its name (letters alone
/// would clash on file systems that ignore case).
fn diagram_file(rules: &Rules, kind: usize) -> String {
    let slug: String = rules.pieces[kind]
        .name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("{kind:02}-{slug}.svg")
}

/// The section of a rules page that shows its pieces' diagrams.
fn pieces_section(stem: &str, rules: &Rules) -> String {
    let mut s = String::from(
        "<!-- pieces: drawn by `cargo test --profile checked --test render -- --ignored \
         regenerate_piece_diagrams`; do not edit by hand -->\n## The pieces\n\n\
         Where each piece moves and captures from a central square of an empty board \
         (`varsand render FILE --piece NAME` draws one).\n\n",
    );
    for kind in 0..rules.pieces.len() {
        let name = &rules.pieces[kind].name;
        s += &format!(
            "![{name}](../img/pieces/{stem}/{})\n",
            diagram_file(rules, kind)
        );
    }
    s + "<!-- /pieces -->\n"
}

/// Each rules page with its pieces section as it should read: (page, text).
fn rules_pages() -> Vec<(std::path::PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for (stem, path) in shipped_games() {
        let page = root.join(format!("docs/rules/{stem}.md"));
        let Ok(text) = std::fs::read_to_string(&page) else {
            continue;
        };
        let section = pieces_section(&stem, &rules_of(&path));
        let kept = match (text.find("<!-- pieces"), text.find("<!-- /pieces -->\n")) {
            (Some(a), Some(b)) => format!("{}{section}{}", &text[..a], &text[b + 17..]),
            _ => format!("{}\n{section}", text.trim_end()),
        };
        out.push((page, kept));
    }
    out
}

#[test]
fn the_piece_diagrams_of_the_rules_pages_are_the_renderers() {
    let mut files = piece_diagrams();
    files.extend(rules_pages());
    assert_up_to_date(files, "regenerate_piece_diagrams");
}

/// Draws the rules pages' piece diagrams again, and their pieces sections.
#[test]
#[ignore]
fn regenerate_piece_diagrams() {
    for (path, text) in piece_diagrams().into_iter().chain(rules_pages()) {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
        std::fs::write(&path, text).expect("write");
    }
}

// ---- the command line -----------------------------------------------------------------

fn varsand(args: &[&str]) -> std::process::Output {
    common::process::run(args, b"")
}

#[test]
fn render_writes_the_picture_to_standard_output_or_a_file() {
    let out = varsand(&["render", "variants/chess.var", "--moves", "e2e4 e7e5"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let picture = read(&text);
    assert_eq!(picture.pieces["e5"], ("p".to_string(), "black".to_string()));
    assert_eq!(picture.fills["e5"], palette::LAST_MOVE.dark.hex());

    let dir = std::env::temp_dir().join(format!("varsand-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("pos.svg");
    let fen = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1";
    let out = varsand(&[
        "render",
        "variants/chess.var",
        "--fen",
        fen,
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success() && out.stdout.is_empty());
    let picture = read(&std::fs::read_to_string(&file).expect("the picture was written"));
    assert_eq!(picture.pieces.len(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn render_draws_a_piece_diagram_by_name_or_letter() {
    for piece in ["Knight", "knight", "N"] {
        let out = varsand(&["render", "variants/chess.var", "--piece", piece]);
        assert!(out.status.success(), "{piece}");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(text.contains("data-diagram=\"Knight\""), "{text}");
        assert_eq!(text.matches("data-reach=\"both\" data-square").count(), 8);
    }
    let out = varsand(&["render", "variants/chess.var", "--piece", "Amazon"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no piece is named `Amazon`") && err.contains("Knight (N)"),
        "{err}"
    );
    let out = varsand(&[
        "render",
        "variants/monkey_king.var",
        "--piece",
        "Monkey King",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("K, M, O"), "{err}");
}

#[test]
fn render_refuses_bad_input_with_a_message() {
    for (args, said) in [
        (vec!["--fen", "bad"], "error: bad --fen"),
        (
            vec!["--moves", "e2e5"],
            "error: --moves: `e2e5` is not legal",
        ),
        (vec!["-o", "/nonexistent/dir/x.svg"], "error: cannot write"),
        (
            vec!["--flip", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1 x"],
            "error: bad --fen",
        ),
    ] {
        let mut all = vec!["render", "variants/chess.var"];
        all.extend(args);
        let out = varsand(&all);
        assert_eq!(out.status.code(), Some(1), "{all:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{all:?}: {err}");
        assert!(out.stdout.is_empty());
    }
    let out = varsand(&["render", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
}

// ---- the terminal board ---------------------------------------------------------------

use varsand::repl::display;

fn bg(c: Colour) -> String {
    format!("\x1b[48;5;{}m", c.0)
}

fn fg_bold(c: Colour) -> String {
    format!("\x1b[1;38;5;{}m", c.0)
}

#[test]
fn plain_text_fills_terrain_with_marks_and_names_them() {
    let pos = Position::start(variant("jungles_mountains"));
    let board = display::render(&pos, false);
    assert!(
        board.contains("\n5 ^^^^^^^^^^^^^^^^^^^^^^^^ 5\n"),
        "{board}"
    );
    assert!(
        board.contains("\n7 /// d  e ////// d  e /// 7\n"),
        "{board}"
    );
    assert!(board.contains("\n/// jungle: blocks passing and landing; cleared by Dozer\n"));
    assert!(board.contains("\n^^^ mountain: blocks passing and landing; cleared by Engineer\n"));
    assert!(!board.contains('\x1b'));
}

#[test]
fn a_piece_on_terrain_has_the_mark_beside_it() {
    let rules = rules_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/lava.var"));
    let fen = "rnsqksnr/pppppppp/8/~2~~2~/~2~S(~)2~/8/PPPPPPPP/RN1QKSNR w - - 0 1";
    let pos = Position::from_fen(rules, fen).expect("a valid position");
    let board = display::render(&pos, false);
    assert!(
        board.contains("\n4 === .  . ====S= .  . === 4\n"),
        "{board}"
    );
    assert!(board.contains("\n=== lava: blocks passing and landing; crossed by Salamander\n"));
}

#[test]
fn terrain_marks_are_never_letters_digits_or_piece_marks() {
    for path in common::game_files() {
        let looks = varsand::render::terrain_looks(&rules_of(&path));
        for (i, look) in looks.iter().enumerate() {
            let what = format!("{}: {}", path.display(), look.mark);
            assert!(!look.mark.is_alphanumeric(), "{what}");
            assert!(!"+~.[]()@".contains(look.mark), "{what}");
            assert!(looks[..i].iter().all(|l| l.mark != look.mark), "{what}");
        }
    }
}

#[test]
fn terminal_pieces_are_tokens_in_their_sides_colours() {
    let pos = Position::start(variant("chess"));
    let board = display::render(&pos, true);
    let reset = "\x1b[0m";
    // a2 is light: a white pawn on a white token with a black bold letter.
    let white = format!(
        "{} {}{}P{reset}",
        bg(palette::SQUARES.light),
        bg(palette::FIRST_SIDE.token),
        fg_bold(palette::FIRST_SIDE.letter)
    );
    assert!(board.contains(&white), "{board:?}");
    // a7 is dark: a black pawn on a black token with a white letter.
    let black = format!(
        "{} {}{}p{reset}",
        bg(palette::SQUARES.dark),
        bg(palette::SECOND_SIDE.token),
        fg_bold(palette::SECOND_SIDE.letter)
    );
    assert!(board.contains(&black), "{board:?}");
    // The promotion zone is tinted, and named under the board.
    assert!(board.contains(&bg(palette::ZONES[0].dark)));
    assert!(board.contains("last_rank"), "{board}");
}

#[test]
fn terminal_marks_the_last_move_and_a_check() {
    let mut pos = Position::start(variant("chess"));
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        pos.play(m).expect("legal");
    }
    let board = display::render(&pos, true);
    assert!(board.contains(&bg(palette::CHECK.dark)), "{board:?}");
    // d8 and h4 are dark squares.
    assert!(board.contains(&bg(palette::LAST_MOVE.dark)), "{board:?}");
    assert!(!board.contains(&bg(palette::LAST_MOVE.light)), "{board:?}");
    let plain = display::render(&pos, false);
    assert!(plain.contains("[q]"), "{plain}");
}

/// A zone that no rule uses (it only names squares) is not tinted; one that decides
/// a promotion is.
#[test]
fn only_zones_a_rule_uses_are_tinted() {
    let source = r#"
game "Tints"
board 4 x 4
players white black
zone far { white: rank 4  black: rank 1 }
zone middle = b2 c2 b3 c3
piece King K { moves "K" royal }
piece Pawn P { moves "fW" promotes on far to K }
end { checkmate loss }
setup "k3/4/4/P2K w - - 0 1"
"#;
    let rules = varsand::load_rules(source).expect("loads");
    let pos = Position::start(rules);
    let picture = check_picture(&pos, &BoardOptions::default());
    let plain = [palette::SQUARES.light.hex(), palette::SQUARES.dark.hex()];
    for square in ["b2", "c2", "b3", "c3"] {
        assert!(
            plain.contains(&picture.fills[square]),
            "{square} is in no zone a rule uses: {}",
            picture.fills[square]
        );
    }
    assert!(
        !plain.contains(&picture.fills["a4"]),
        "a4 decides a promotion: tinted"
    );
}
