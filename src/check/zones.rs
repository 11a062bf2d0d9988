//! Zones: named sets of cells, shared or per player, each built from the regions and
//! the zones declared before it.

use super::boards::region_cells;
use super::names::resolve_player;
use super::{Checker, Params};
use crate::diagnostic::{Problem, ProblemCode};
use crate::ids::Side;
use crate::model::{Geometry, Zone};
use crate::syntax::ast::{Decl, File, ZoneBody};

/// The most zones a game may declare (the compiler adds two per flight).
pub(crate) const MAX_ZONES: usize = 1024;

/// Every zone the file declares, in order (a duplicate is reported and left out).
pub(crate) fn zones(
    ck: &mut Checker,
    file: &File,
    geometry: &Geometry,
    params: &Params,
) -> Vec<Zone> {
    let players = params.players;
    let n = geometry.len();
    let mut zones: Vec<Zone> = Vec::new();
    for d in &file.decls {
        let Decl::Zone(z) = d else { continue };
        if zones.iter().any(|x| x.name == z.name.node) {
            ck.report(
                Problem::new(
                    ProblemCode::DuplicateZone,
                    z.name.span,
                    format!("zone `{}` is declared twice", z.name.node),
                )
                .help("rename one of them"),
            );
            continue;
        }
        if zones.len() == MAX_ZONES {
            ck.report(
                Problem::new(
                    ProblemCode::TooManyZones,
                    z.name.span,
                    format!("a game has at most {MAX_ZONES} zones"),
                )
                .help("join zones that are used together"),
            );
            break;
        }
        if geometry.parse_square(&z.name.node).is_some() {
            ck.report(
                Problem::new(
                    ProblemCode::ZoneNamedLikeSquare,
                    z.name.span,
                    format!("zone `{}` has the name of a square", z.name.node),
                )
                .label("a square's name")
                .help("a region would read it as the square: give the zone another name"),
            );
            continue;
        }
        let mut cells = [vec![false; n], vec![false; n]];
        match &z.body {
            ZoneBody::Shared(region) => {
                let set = region_cells(ck, region, (geometry, params), &zones, None);
                cells = [set.clone(), set];
            }
            ZoneBody::ByPlayer(list) => {
                for (player, region) in list {
                    if let Some(side) = resolve_player(ck, players, player) {
                        cells[side] = region_cells(
                            ck,
                            region,
                            (geometry, params),
                            &zones,
                            Some(Side::new(side)),
                        );
                    }
                }
            }
        }
        zones.push(Zone {
            name: z.name.node.clone(),
            cells,
            declared: true,
        });
    }
    zones
}
