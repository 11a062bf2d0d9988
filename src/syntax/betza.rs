//! Betza notation, the chess-variant community's language for piece moves, parsed into
//! move components. The parser reports a bad string at the offending character.
//!
//! Atoms: `W F D N A H C Z G` are leapers (one jump of the vector (1,0) (1,1) (2,0) (1,2)
//! (2,2) (3,0) (1,3) (2,3) (3,3) in every direction); `K` = `WF`; `R B Q` are the riders
//! `WW FF WWFF`. A doubled leaper (`NN`) is a rider; a number after an atom limits the
//! steps (`R4`, `W2`). Lower-case modifiers before an atom: `m` move only, `c` capture
//! only, `f b l r v s` and `h` (with `l`/`r`: a chiral half) select directions, `p`
//! hop over one piece (cannon), `g` land just beyond it (grasshopper), `n` lame (the
//! path must be empty), `i` only as the piece's first move.

/// How a move component treats its landing square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Hop {
    /// An ordinary leap or slide.
    #[default]
    None,
    /// Jumps exactly one piece (the screen), then slides on: `p`.
    Cannon,
    /// Jumps exactly one piece and lands just beyond it: `g`.
    Grasshopper,
}

/// One move component of a Betza string: a set of directions of one atom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetzaMove {
    /// Step vectors (dx, dy) with dy toward the mover's forward direction.
    pub vectors: Vec<(i8, i8)>,
    /// Repeats the step in a line.
    pub rider: bool,
    /// The most steps a rider takes; 0 for no limit. Leapers take exactly one.
    pub max_steps: u8,
    pub can_move: bool,
    pub can_capture: bool,
    pub hop: Hop,
    /// The squares on the way must be empty.
    pub lame: bool,
    /// Only when the piece has not moved yet.
    pub initial: bool,
    /// Where in the string this component was written (byte offset, length).
    pub at: (usize, usize),
}

/// A mistake in a Betza string, at a byte offset inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetzaError {
    pub offset: usize,
    pub len: usize,
    pub message: String,
    pub help: String,
}

const ATOMS: &str = "WFDNAHCZGKRBQ";

fn base(atom: char) -> &'static [(i8, i8)] {
    match atom {
        'W' | 'R' => &[(1, 0)],
        'F' | 'B' => &[(1, 1)],
        'D' => &[(2, 0)],
        'N' => &[(1, 2)],
        'A' => &[(2, 2)],
        'H' => &[(3, 0)],
        'C' => &[(1, 3)],
        'Z' => &[(2, 3)],
        'G' => &[(3, 3)],
        'K' | 'Q' => &[(1, 0), (1, 1)],
        _ => &[],
    }
}

/// Every vector of the 8-fold symmetry of (a, b), without repeats, in a fixed order.
pub fn symmetric(a: i8, b: i8) -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// The squares a lame leap must find empty, as offsets from its origin: straight and
/// diagonal leaps pass the squares on their line; an oblique leap first steps
/// orthogonally along its long axis, then diagonally (a horse with a blockable leg for `nN`).
pub fn lame_path(dx: i8, dy: i8) -> Vec<(i8, i8)> {
    let (sx, sy) = (dx.signum(), dy.signum());
    let (ax, ay) = (dx.abs(), dy.abs());
    let mut path = Vec::new();
    if ax == 0 || ay == 0 || ax == ay {
        let steps = ax.max(ay);
        for k in 1..steps {
            path.push((sx * k.min(ax), sy * k.min(ay)));
        }
    } else {
        let (long, short) = (ax.max(ay), ax.min(ay));
        let (mut x, mut y) = (0i8, 0i8);
        for _ in 0..(long - short) {
            if ax > ay {
                x += sx;
            } else {
                y += sy;
            }
            path.push((x, y));
        }
        for _ in 0..short {
            x += sx;
            y += sy;
            path.push((x, y));
        }
        path.pop();
    }
    path
}

fn dir_matches(letter: char, (dx, dy): (i8, i8)) -> bool {
    match letter {
        'f' => dy > 0,
        'b' => dy < 0,
        'l' => dx < 0,
        'r' => dx > 0,
        'v' => dy.abs() > dx.abs() || (dx.abs() == dy.abs()),
        's' => dx.abs() > dy.abs() || (dx.abs() == dy.abs()),
        _ => false,
    }
}

/// Does a direction term (one letter, or a pair) select the vector?
fn term_matches(term: &str, v: (i8, i8)) -> bool {
    let (dx, dy) = v;
    let orthogonal = dx == 0 || dy == 0;
    let oblique = !orthogonal && dx.abs() != dy.abs();
    let mut chars = term.chars();
    let a = chars.next().unwrap_or(' ');
    match chars.next() {
        None => dir_matches(a, v),
        Some(b) => {
            if a == 'h' || b == 'h' {
                // Chiral halves: a clockwise (r) or anticlockwise (l) set of four.
                let turn = if a == 'h' { b } else { a };
                let clockwise = (dy.abs() > dx.abs()) == (dx * dy > 0);
                return oblique && (if turn == 'r' { clockwise } else { !clockwise });
            }
            if orthogonal {
                return dir_matches(a, v) || dir_matches(b, v);
            }
            if a == b {
                // A doubled letter on an oblique atom: the narrow pair along that axis.
                let narrow = if matches!(a, 'f' | 'b') { 'v' } else { 's' };
                return dir_matches(a, v) && (!oblique || dir_matches(narrow, v));
            }
            dir_matches(a, v) && dir_matches(b, v)
        }
    }
}

fn axis(c: char) -> u8 {
    match c {
        'f' | 'b' | 'v' => 0,
        'l' | 'r' | 's' => 1,
        _ => 2, // h
    }
}

fn err(offset: usize, len: usize, message: String, help: &str) -> BetzaError {
    BetzaError {
        offset,
        len,
        message,
        help: help.to_string(),
    }
}

/// The lower-case modifiers before an atom, as read.
#[derive(Default)]
struct Modifiers {
    move_only: bool,
    capture_only: bool,
    hop: Hop,
    /// Where `p` or `g` stands.
    hop_at: Option<usize>,
    lame: bool,
    /// Where `n` stands.
    lame_at: Option<usize>,
    initial: bool,
    /// Direction letters with their offsets.
    dirs: Vec<(usize, char)>,
}

/// Reads a Betza string one component at a time.
struct Reader<'t> {
    text: &'t str,
    chars: Vec<(usize, char)>,
    i: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<(usize, char)> {
        self.chars.get(self.i).copied()
    }
    /// The byte offset of the next character (the text's end after the last).
    fn offset(&self) -> usize {
        self.peek().map_or(self.text.len(), |c| c.0)
    }

    fn modifiers(&mut self) -> Result<Modifiers, BetzaError> {
        let mut m = Modifiers::default();
        while let Some((at, c)) = self.peek().filter(|c| c.1.is_ascii_lowercase()) {
            match c {
                'm' => m.move_only = true,
                'c' => m.capture_only = true,
                'p' | 'g' => {
                    m.hop = if c == 'p' {
                        Hop::Cannon
                    } else {
                        Hop::Grasshopper
                    };
                    m.hop_at = Some(at);
                }
                'n' => {
                    m.lame = true;
                    m.lame_at = Some(at);
                }
                'i' => m.initial = true,
                'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => m.dirs.push((at, c)),
                _ => {
                    let upper = c.to_ascii_uppercase();
                    let help = if ATOMS.contains(upper) && c.is_ascii_lowercase() {
                        format!(
                            "atoms are upper case: write `{upper}` for the atom; \
                             modifiers are m c f b l r s v h p g n i, written before an atom"
                        )
                    } else {
                        "modifiers are m c f b l r s v h p g n i, written before an atom"
                            .to_string()
                    };
                    return Err(err(
                        at,
                        c.len_utf8(),
                        format!("unknown modifier `{c}`"),
                        &help,
                    ));
                }
            }
            self.i += 1;
        }
        Ok(m)
    }

    /// The atom after the modifiers of a component that began at `start`.
    fn atom(&mut self, start: usize) -> Result<(usize, char), BetzaError> {
        match self.peek() {
            Some((at, c)) if ATOMS.contains(c) => {
                self.i += 1;
                Ok((at, c))
            }
            Some((at, c)) if !c.is_whitespace() => Err(err(
                at,
                c.len_utf8(),
                format!("`{c}` is not a Betza atom"),
                "atoms are W F D N A H C Z G (leapers), K, and R B Q (riders)",
            )),
            _ => Err(err(
                start,
                self.offset().saturating_sub(start).max(1),
                "modifiers without an atom".to_string(),
                "a move is modifiers followed by an atom, such as fmW",
            )),
        }
    }

    /// A doubled atom and a range after it: (rider, most steps).
    fn range(&mut self, atom: char) -> Result<(bool, u32), BetzaError> {
        let mut rider = matches!(atom, 'R' | 'B' | 'Q');
        if let Some((at, c)) = self.peek()
            && c == atom
        {
            if rider || atom == 'K' {
                return Err(err(
                    at,
                    1,
                    format!("`{atom}` cannot be doubled"),
                    "doubling makes a leaper a rider (NN); R, B and Q already ride, K does not double",
                ));
            }
            rider = true;
            self.i += 1;
        }
        let digits_at = self.offset();
        let mut digits = String::new();
        while let Some((_, c)) = self.peek().filter(|c| c.1.is_ascii_digit()) {
            digits.push(c);
            self.i += 1;
        }
        if digits.is_empty() {
            return Ok((rider, if rider { 0 } else { 1 }));
        }
        let n: u32 = digits.parse().unwrap_or(u32::MAX);
        if n > 64 {
            return Err(err(
                digits_at,
                digits.len(),
                format!("range {digits} is too long"),
                "a range is at most 64 steps; write no number for an unlimited rider",
            ));
        }
        Ok((rider || n != 1, n))
    }
}

/// The direction terms of the modifiers: single letters, or pairs (`fr`, `lh`).
fn direction_terms(dirs: &[(usize, char)]) -> Result<Vec<String>, BetzaError> {
    let mut terms: Vec<String> = Vec::new();
    let mut k = 0;
    while k < dirs.len() {
        let a = dirs[k].1;
        if let Some(&(_, b)) = dirs.get(k + 1)
            && (a == b || axis(a) != axis(b))
        {
            terms.push(format!("{a}{b}"));
            k += 2;
            continue;
        }
        if a == 'h' {
            return Err(err(
                dirs[k].0,
                1,
                "`h` needs `l` or `r` beside it".to_string(),
                "`rh` selects the clockwise half of an oblique atom, `lh` the anticlockwise half",
            ));
        }
        terms.push(a.to_string());
        k += 1;
    }
    Ok(terms)
}

/// Parses one component starting at `start`: modifiers, atom, range.
fn component(r: &mut Reader, start: usize) -> Result<BetzaMove, BetzaError> {
    let m = r.modifiers()?;
    let (atom_at, atom) = r.atom(start)?;
    let (rider, max_steps) = r.range(atom)?;
    let end = r.offset();
    let terms = direction_terms(&m.dirs)?;
    let mut vectors = Vec::new();
    for &(a, b) in base(atom) {
        for v in symmetric(a, b) {
            if terms.is_empty() || terms.iter().any(|t| term_matches(t, v)) {
                vectors.push(v);
            }
        }
    }
    if vectors.is_empty() {
        let first = m.dirs.first().map_or(start, |d| d.0);
        return Err(err(
            first,
            atom_at - first,
            format!("these directions select no move of `{atom}`"),
            "f b l r pick forward, backward, left, right; v and s pick vertical and sideways",
        ));
    }
    if m.lame && !(base(atom).iter().any(|&(a, b)| a.max(b) >= 2)) {
        return Err(err(
            m.lame_at.unwrap_or(start),
            1,
            format!("`n` (lame) has no effect on `{atom}`"),
            "a lame leaper needs a path: use n with D, N, A, H, C, Z or G",
        ));
    }
    if m.hop != Hop::None && !rider {
        return Err(err(
            m.hop_at.unwrap_or(start),
            1,
            format!("a hopper needs a rider, and `{atom}` is a leaper"),
            "write p or g before R, B, Q or a doubled leaper, as in the cannon mRcpR",
        ));
    }
    let (can_move, can_capture) = if m.move_only || m.capture_only {
        (m.move_only, m.capture_only)
    } else {
        (true, true)
    };
    Ok(BetzaMove {
        vectors,
        rider,
        max_steps: max_steps as u8,
        can_move,
        can_capture,
        hop: m.hop,
        lame: m.lame && !rider,
        initial: m.initial,
        at: (start, end - start),
    })
}

/// Parses a Betza string into its move components.
pub fn parse(text: &str) -> Result<Vec<BetzaMove>, BetzaError> {
    let mut r = Reader {
        text,
        chars: text.char_indices().collect(),
        i: 0,
    };
    let mut moves = Vec::new();
    while let Some((start, c)) = r.peek() {
        if c.is_whitespace() {
            r.i += 1;
            continue;
        }
        moves.push(component(&mut r, start)?);
    }
    if moves.is_empty() {
        return Err(err(
            0,
            text.len(),
            "empty Betza string".into(),
            "write at least one atom, such as K or fmW",
        ));
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vecs(s: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = parse(s)
            .unwrap()
            .into_iter()
            .flat_map(|m| m.vectors)
            .collect();
        v.sort();
        v
    }

    #[test]
    fn pawn_moves() {
        assert_eq!(vecs("fmW"), vec![(0, 1)]);
        assert_eq!(vecs("fcF"), vec![(-1, 1), (1, 1)]);
        let d = parse("ifmnD").unwrap();
        assert!(d[0].initial && d[0].lame && !d[0].can_capture && d[0].can_move);
        assert_eq!(d[0].vectors, vec![(0, 2)]);
    }

    #[test]
    fn knight_direction_sets() {
        assert_eq!(vecs("N").len(), 8);
        assert_eq!(vecs("fN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(vecs("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(vecs("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(vecs("vN"), vec![(-1, -2), (-1, 2), (1, -2), (1, 2)]);
        assert_eq!(vecs("rhN").len(), 4);
        assert!(vecs("rhN").contains(&(1, 2)) && vecs("rhN").contains(&(2, -1)));
    }

    #[test]
    fn orthogonal_letters_join() {
        assert_eq!(vecs("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
        assert_eq!(vecs("flF"), vec![(-1, 1)]);
        assert_eq!(
            vecs("WfF"),
            vec![(-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0), (1, 1)]
        );
    }

    #[test]
    fn riders_and_ranges() {
        let r = parse("R4").unwrap();
        assert!(r[0].rider && r[0].max_steps == 4);
        let nn = parse("NN").unwrap();
        assert!(nn[0].rider && nn[0].max_steps == 0 && nn[0].vectors.len() == 8);
        let c = parse("mRcpR").unwrap();
        assert_eq!(c[1].hop, Hop::Cannon);
        assert!(!c[1].can_move && c[0].can_move && !c[0].can_capture);
    }

    #[test]
    fn lame_paths() {
        assert_eq!(lame_path(0, 2), vec![(0, 1)]);
        assert_eq!(lame_path(1, 2), vec![(0, 1)]);
        assert_eq!(lame_path(2, -1), vec![(1, 0)]);
        assert_eq!(lame_path(3, 3), vec![(1, 1), (2, 2)]);
        assert_eq!(lame_path(1, 3), vec![(0, 1), (0, 2)]);
    }

    #[test]
    fn errors_point_at_the_character() {
        let e = parse("fmWxF").unwrap_err();
        assert_eq!((e.offset, e.len), (3, 1));
        let e = parse("fmY").unwrap_err();
        assert_eq!(e.offset, 2);
        let e = parse("fm").unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(parse("pN").is_err());
        assert!(parse("RR").is_err());
        assert!(parse("").is_err());
    }
}
