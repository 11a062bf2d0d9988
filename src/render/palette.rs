//! The colours of every picture of a board, the SVG and the terminal's alike.
//!
//! Each colour is an entry of the xterm 256-colour palette: the terminal draws it by
//! its index and the SVG by its RGB value, so both show the same colours and one set
//! of numbers is tested.
//!
//! The contrast rule (WCAG 2 contrast ratios; `tests/render.rs` checks them):
//! - a token's outline (its ring) against every square colour a piece may stand on —
//!   light and dark squares, zone tints, terrain, the last move, highlights, check —
//!   is at least 4.5:1, so every piece stands out on every square;
//! - a token's letter against the token is at least 4.5:1, so it reads;
//! - ink (terrain marks, coordinates, badges' numbers) against what it is drawn on is
//!   at least 4.5:1.
//!
//! So the first player's token is white with a black ring and a black letter, the
//! second player's black with a white letter, and every square colour is light enough
//! (relative luminance at least 0.175) for black to reach 4.5:1 on it.

use crate::ids::Side;

/// A colour of the xterm 256-colour palette, by its index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Colour(pub u8);

/// The levels of the 6x6x6 colour cube (xterm indices 16..=231).
const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];
/// The sixteen system colours, as xterm draws them by default.
const SYSTEM: [[u8; 3]; 16] = [
    [0, 0, 0],
    [205, 0, 0],
    [0, 205, 0],
    [205, 205, 0],
    [0, 0, 238],
    [205, 0, 205],
    [0, 205, 205],
    [229, 229, 229],
    [127, 127, 127],
    [255, 0, 0],
    [0, 255, 0],
    [255, 255, 0],
    [92, 92, 255],
    [255, 0, 255],
    [0, 255, 255],
    [255, 255, 255],
];

impl Colour {
    /// Its red, green and blue values.
    pub fn rgb(self) -> [u8; 3] {
        match self.0 {
            i @ 0..=15 => SYSTEM[i as usize],
            i @ 16..=231 => {
                let i = i - 16;
                [
                    CUBE[usize::from(i / 36)],
                    CUBE[usize::from(i / 6 % 6)],
                    CUBE[usize::from(i % 6)],
                ]
            }
            i => {
                let grey = 8 + 10 * (i - 232);
                [grey, grey, grey]
            }
        }
    }

    /// `#rrggbb`, for SVG.
    pub fn hex(self) -> String {
        let [r, g, b] = self.rgb();
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// The WCAG relative luminance, 0 (black) to 1 (white).
    pub fn luminance(self) -> f64 {
        luminance(self.rgb())
    }
}

/// The WCAG relative luminance of any red, green and blue values (the web page's
/// colours are not all xterm's).
pub fn luminance([r, g, b]: [u8; 3]) -> f64 {
    let linear = |v: u8| {
        let c = f64::from(v) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// The WCAG contrast ratio of two colours, 1 to 21.
pub fn contrast(a: Colour, b: Colour) -> f64 {
    contrast_rgb(a.rgb(), b.rgb())
}

/// The WCAG contrast ratio of any two red, green and blue values.
pub fn contrast_rgb(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// Black: terrain marks, rings, the first player's letters.
pub const INK: Colour = Colour(16);
/// White: the page behind the boards.
pub const PAPER: Colour = Colour(231);
/// Text on the page: labels, coordinates, legends.
pub const TEXT: Colour = Colour(235);
/// The lines around boards.
pub const FRAME: Colour = Colour(239);

/// The rims of the discs under a stack's token.
pub const STACK_RIM: Colour = Colour(245);

/// The tray that holds a player's pieces in hand.
pub const TRAY: Colour = Colour(254);

/// The line along which a zone splits the board between the players.
pub const BORDER: Colour = Colour(25);

/// How a player's pieces are drawn: a token (a disc in the SVG, the letter's cell in
/// the terminal) with an outline and a letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideColours {
    pub token: Colour,
    /// The token's ring; the colour a piece shows against its square.
    pub outline: Colour,
    pub letter: Colour,
}

/// The first player's pieces: white tokens, black rings and letters.
pub const FIRST_SIDE: SideColours = SideColours {
    token: Colour(231),
    outline: Colour(16),
    letter: Colour(16),
};
/// The second player's pieces: black tokens with white letters.
pub const SECOND_SIDE: SideColours = SideColours {
    token: Colour(16),
    outline: Colour(16),
    letter: Colour(231),
};

/// A player's colours (0 moves first).
pub fn side(player: Side) -> SideColours {
    if player.is_first() {
        FIRST_SIDE
    } else {
        SECOND_SIDE
    }
}

/// The stack-height badge: white numbers on dark red.
pub const BADGE: Colour = Colour(88);
pub const BADGE_TEXT: Colour = Colour(231);

/// A colour for a light square and one for a dark square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    pub light: Colour,
    pub dark: Colour,
}

impl Pair {
    pub fn on(self, dark: bool) -> Colour {
        if dark { self.dark } else { self.light }
    }
}

const fn pair(light: u8, dark: u8) -> Pair {
    Pair {
        light: Colour(light),
        dark: Colour(dark),
    }
}

/// Plain squares: cream and tan.
pub const SQUARES: Pair = pair(223, 180);
/// Zone tints, one per drawn zone: green, blue, violet, lime.
pub const ZONES: [Pair; 4] = [
    pair(194, 151),
    pair(189, 146),
    pair(225, 182),
    pair(193, 150),
];
/// The last move's squares: yellow.
pub const LAST_MOVE: Pair = pair(229, 186);
/// Highlighted squares (a selected piece and where it may go): cyan.
pub const HIGHLIGHT: Pair = pair(159, 116);
/// The square of a royal piece in check: red.
pub const CHECK: Pair = pair(210, 167);
/// Terrain colours: green, grey, orange, blue, violet, olive. Which terrain takes which
/// is decided by its properties (see `render::terrain_looks`).
pub const TERRAIN: [Pair; 6] = [
    pair(114, 71),
    pair(250, 246),
    pair(216, 173),
    pair(111, 68),
    pair(183, 140),
    pair(187, 144),
];

/// What decides a square's colour, besides being light or dark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tint {
    Plain,
    /// Drawn zone number `.0` (an index into [`ZONES`]).
    Zone(usize),
    /// Terrain colour number `.0` (an index into [`TERRAIN`]).
    Terrain(usize),
    LastMove,
    Highlight,
    Check,
}

/// A square's colour.
pub fn square(dark: bool, tint: Tint) -> Colour {
    let pair = match tint {
        Tint::Plain => SQUARES,
        Tint::Zone(i) => ZONES[i % ZONES.len()],
        Tint::Terrain(i) => TERRAIN[i % TERRAIN.len()],
        Tint::LastMove => LAST_MOVE,
        Tint::Highlight => HIGHLIGHT,
        Tint::Check => CHECK,
    };
    pair.on(dark)
}

/// Every colour a square may have, for the contrast tests.
pub fn every_square_colour() -> Vec<Colour> {
    let mut pairs = vec![SQUARES, LAST_MOVE, HIGHLIGHT, CHECK];
    pairs.extend(ZONES);
    pairs.extend(TERRAIN);
    pairs.iter().flat_map(|p| [p.light, p.dark]).collect()
}
