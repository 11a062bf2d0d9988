use varsand::check::{load, Overrides};
#[test]
fn scratch() {
    let base = include_str!("../variants/chess.var");
    for (a, b) in [("piece Queen Q", "pieceQueen Q"), ("castle white K e1-g1 with h1-f1", "castlewhite K e1-g1 withh1-f1"), ("board 8 x 8", "board 8x8"), ("board 8 x 8", "board8 x 8"), ("8/8/8/8/PPPPPPPP", "8/8/08/8/PPPPPPPP"), ("players white black", "playerswhite black")] {
        let s = base.replace(a, b);
        println!("{b:?} -> {}", match load(&s, &Overrides::new()) { Ok(_) => "loads".to_string(), Err(p) => p[0].message.clone() });
    }
}
