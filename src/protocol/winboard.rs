//! How WinBoard sees a game.
