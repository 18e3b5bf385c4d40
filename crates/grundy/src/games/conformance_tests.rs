//! One conformance test over the registry, as GamesmanOne's self-test: every family the
//! registry lists is held to the contract of `family.rs` on every position its entry's
//! small specs reach — specs print and parse back, moves are legal and named, canonical
//! forms settle, bounds bound, ranks and tiers are inverse, the tier solver, the in-memory
//! labelling, the proof search and the exact search agree, proved rules and Grundy values
//! are right, boards are drawn. A family added without one of its required parts fails
//! here, named, before any front end meets it.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::testing;
use super::{registry, Family, GrundySource, Kind, Part, Pos, Spec, Tiers};
use crate::explore::Control;
use crate::game::Outcome;
use crate::report::{self, Limits};

/// Most positions a small spec may reach: more, and it is not small.
const MAX_REACHED: usize = 60_000;

/// About how many positions of each small spec the slower checks (the analyzer, the
/// searches, a proved rule) visit.
const SAMPLES: usize = 60;

/// The position of `family` a spec of one part names.
fn single(text: &str) -> (Arc<dyn Family>, Pos) {
    let spec: Spec = text
        .parse()
        .unwrap_or_else(|e| panic!("`{text}` does not parse: {e:?}"));
    let part = spec
        .single()
        .unwrap_or_else(|| panic!("`{text}` is a sum: a small spec is one family's position"));
    (Arc::clone(&part.family), part.position.clone())
}

fn spec_of(family: &Arc<dyn Family>, position: &Pos) -> Spec {
    Spec {
        parts: vec![Part {
            family: Arc::clone(family),
            position: position.clone(),
        }],
    }
}

fn children(family: &dyn Family, pos: &Pos) -> Vec<Pos> {
    let mut out = Vec::new();
    if family.terminal(pos).is_none() {
        family.moves(pos, &mut out);
    }
    out
}

/// Every position `root` reaches, one per canonical form, in the order first met.
fn reach(family: &dyn Family, root: &Pos, what: &str) -> Vec<Pos> {
    let mut seen = HashSet::new();
    let mut order = vec![root.clone()];
    seen.insert(family.canonical(root));
    let mut next = 0;
    while next < order.len() {
        for child in children(family, &order[next]) {
            if seen.insert(family.canonical(&child)) {
                order.push(child);
                assert!(
                    order.len() <= MAX_REACHED,
                    "{what}: reaches more than {MAX_REACHED} positions, too many for a small spec"
                );
            }
        }
        next += 1;
    }
    order
}

/// Every `step`-th position, so that about [`SAMPLES`] are visited.
fn sampled(positions: &[Pos]) -> impl Iterator<Item = &Pos> {
    positions
        .iter()
        .step_by(positions.len().div_ceil(SAMPLES).max(1))
}

/// Specs print and parse back to the same spec, and print the same again.
fn round_trip(text: &str) {
    let spec: Spec = text
        .parse()
        .unwrap_or_else(|e| panic!("`{text}` does not parse: {e:?}"));
    let printed = spec.to_string();
    let again: Spec = printed
        .parse()
        .unwrap_or_else(|e| panic!("`{text}` prints as `{printed}`, which does not parse: {e:?}"));
    assert_eq!(
        again, spec,
        "`{text}` prints as `{printed}`, which parses to another spec"
    );
    assert_eq!(
        again.to_string(),
        printed,
        "`{text}`: printing is not stable"
    );
}

/// The rules: positions round-trip through specs, canonical forms settle, moves are legal
/// and bounded, and each is named so that people can tell them apart.
fn rules(family: &Arc<dyn Family>, root: &Pos, reached: &[Pos], what: &str) {
    let bound = family.bound(root);
    assert!(
        reached.len() as u128 <= bound.positions,
        "{what}: reaches {} positions past its bound of {}",
        reached.len(),
        bound.positions
    );
    let root_key = family.canonical(root);
    for pos in reached {
        let shown = spec_of(family, pos).to_string();
        let key = family.canonical(pos);
        assert_eq!(
            family.canonical(&key),
            key,
            "{what}: canonical form of {shown} moves again"
        );
        round_trip(&shown);
        let parsed = single(&shown).1;
        assert_eq!(
            family.canonical(&parsed),
            key,
            "{what}: {shown} parses to another position"
        );

        let moves = children(family.as_ref(), pos);
        assert!(
            moves.len() as u128 <= bound.moves,
            "{what}: {shown} has more moves than its bound"
        );
        assert!(
            moves.len() as u128 <= family.move_count(pos),
            "{what}: {shown}: move_count"
        );
        let keys: Vec<Pos> = moves.iter().map(|c| family.canonical(c)).collect();
        match family
            .some_move(pos)
            .filter(|_| family.terminal(pos).is_none())
        {
            Some(m) => assert!(
                keys.contains(&family.canonical(&m)),
                "{what}: {shown}: some_move"
            ),
            None => assert!(moves.is_empty(), "{what}: {shown}: no some_move, yet moves"),
        }
        let mut names = Vec::with_capacity(moves.len());
        for child in &moves {
            assert!(
                family.is_move(pos, child),
                "{what}: {shown}: a move is not `is_move`"
            );
            let name = family.move_name(pos, child);
            assert!(
                !name.trim().is_empty(),
                "{what}: {shown}: a move without a name"
            );
            assert!(
                family.names_move(pos, child, &name),
                "{what}: {shown}: `{name}` not known"
            );
            names.push((name, family.canonical(child)));
        }
        // Two moves of one name lead to the same position, up to symmetry.
        names.sort();
        for pair in names.windows(2) {
            assert!(
                pair[0].0 != pair[1].0 || pair[0].1 == pair[1].1,
                "{what}: {shown}: two moves named `{}`",
                pair[0].0
            );
        }
        for other in [pos, root] {
            let other_key = if other == root { &root_key } else { &key };
            if !keys.contains(other_key) {
                assert!(
                    !family.is_move(pos, other),
                    "{what}: {shown}: `is_move` to a non-move"
                );
            }
        }
    }
}

/// Boards are drawn: a partizan or score game draws every position as text, and a family
/// that draws one draws all; a grid holds its cells, and each move is clicked somewhere
/// on the grid or figure the position shows.
fn drawing(family: &Arc<dyn Family>, reached: &[Pos], what: &str) {
    let draws = family.draw(&reached[0]).is_some();
    assert!(
        draws || family.kind() == Kind::Impartial,
        "{what}: a board that is not drawn (`Drawing::draw`)"
    );
    let pictured = family.picture(&reached[0]).is_some();
    let figured = family.figure(&reached[0]).is_some();
    for pos in reached {
        let shown = spec_of(family, pos).to_string();
        assert_eq!(
            family.draw(pos).is_some(),
            draws,
            "{what}: {shown}: drawn or not"
        );
        let picture = family.picture(pos);
        let moves = children(family.as_ref(), pos);
        // A position with moves shows something, and is clicked as the start is (the
        // empty row that ends `ends` shows nothing).
        if !moves.is_empty() {
            let drawing = family.draw(pos).unwrap_or_else(|| "something".into());
            assert!(!drawing.trim().is_empty(), "{what}: {shown}: drawn empty");
            let figure = family.figure(pos).is_some();
            assert_eq!(
                picture.is_some(),
                pictured,
                "{what}: {shown}: pictured or not"
            );
            assert_eq!(figure, figured, "{what}: {shown}: a figure or not");
        }
        if let Some(p) = &picture {
            assert_eq!(
                p.cells.len(),
                (p.rows * p.columns) as usize,
                "{what}: {shown}"
            );
            for child in &moves {
                let cell = family.move_cell(pos, child);
                let (r, c) = cell.unwrap_or_else(|| panic!("{what}: {shown}: a move with no cell"));
                assert!(
                    r < p.rows && c < p.columns,
                    "{what}: {shown}: a cell off the grid"
                );
            }
        }
        if let Some(figure) = family.figure(pos) {
            for child in &moves {
                let part = family.move_part(pos, child);
                let parts = family.move_parts(pos, child);
                assert!(part.is_some(), "{what}: {shown}: no part");
                assert_eq!(parts.first().copied(), part, "{what}: {shown}: parts");
                assert!(
                    parts.iter().all(|&k| (k as usize) < figure.parts()),
                    "{what}: {shown}: a part off the figure"
                );
            }
        }
    }
}

/// Score games: every point still to take is taken by a move or given away by it.
fn scores(family: &Arc<dyn Family>, reached: &[Pos], what: &str) -> bool {
    if family.kind() != Kind::Score || family.points_left(&reached[0]).is_none() {
        return false;
    }
    for pos in reached {
        let left = family
            .points_left(pos)
            .expect("points left everywhere or nowhere");
        assert!(left >= 0, "{what}: negative points left");
        for child in children(family.as_ref(), pos) {
            let after = family.points_left(&child).expect("points left everywhere");
            assert_eq!(
                left,
                family.gain(pos, &child) + family.gift(pos, &child) + after,
                "{what}: {}: points left do not add up over a move",
                spec_of(family, pos)
            );
        }
    }
    true
}

/// A ranking numbers the positions densely: rank and unrank are inverse, the moves by
/// rank are the moves, terminal outcomes agree, and a descending ranking descends.
fn ranking(family: &Arc<dyn Family>, root: &Pos, reached: &[Pos], what: &str) -> bool {
    let Some(ranked) = family.ranking(root) else {
        return false;
    };
    let mut by_rank = Vec::new();
    for pos in reached {
        let shown = spec_of(family, pos).to_string();
        let rank = ranked.rank(pos);
        assert!(rank < ranked.size(), "{what}: {shown}: rank past the size");
        let back = ranked.unrank(rank);
        assert_eq!(
            family.canonical(&back),
            family.canonical(pos),
            "{what}: {shown}: unrank"
        );
        assert_eq!(ranked.rank(&back), rank, "{what}: {shown}: rank of unrank");
        assert_eq!(
            ranked.terminal(rank),
            family.terminal(&back),
            "{what}: {shown}: terminal"
        );
        if family.terminal(&back).is_some() {
            continue;
        }
        let want: Vec<u64> = children(family.as_ref(), &back)
            .iter()
            .map(|c| ranked.rank(c))
            .collect();
        by_rank.clear();
        ranked.moves(rank, &mut by_rank);
        assert_eq!(by_rank, want, "{what}: {shown}: moves by rank");
        if ranked.descending() {
            assert!(
                want.iter().all(|&c| c < rank),
                "{what}: {shown}: a move up the ranks"
            );
        }
    }
    true
}

/// Tiers: every position from the start locates in a tier whose rank gives it back, its
/// moves stay in the tier or go to a child tier; solved, the tiers equal the in-memory
/// labelling, the proof search and the exact search where it is offered; and the
/// parents, where the game offers them. Whether the family has tiers, and parents.
fn tiers(family: &Arc<dyn Family>, what: &str) -> [bool; 2] {
    let Some(tiered) = family.tiers() else {
        return [false, false];
    };
    let game = tiered.game();
    let (root_tier, root_rank) = game.root();
    let start = tiered.position(root_tier, root_rank);
    assert_eq!(
        tiered.locate(&start),
        Some((root_tier, root_rank)),
        "{what}: the start"
    );
    let reached = reach(family.as_ref(), &start, what);
    let mut located = HashSet::new();
    for pos in &reached {
        let shown = spec_of(family, pos).to_string();
        let (t, r) = tiered
            .locate(pos)
            .unwrap_or_else(|| panic!("{what}: {shown} reached, yet not located"));
        assert!(
            t < game.tier_count() && r < game.tier_size(t),
            "{what}: {shown}: off the tiers"
        );
        located.insert((t, r));
        // The rank's position is one the record speaks for: dots and boxes keeps one
        // record for either player to move.
        let back = tiered.position(t, r);
        assert_eq!(
            tiered.locate(&back),
            Some((t, r)),
            "{what}: {shown}: position"
        );
        let later = game.child_tiers(t);
        for child in children(family.as_ref(), pos) {
            let (ct, _) = tiered.locate(&child).expect("a child located");
            assert!(
                ct == t || later.contains(&ct),
                "{what}: {shown}: a move to tier {ct}"
            );
        }
    }
    let (solved, store) = testing::tier_solve(game);
    // Tiers need not merge symmetries: each canonical position reached is at least one
    // position the solver reaches, and each record it keeps is checked below.
    assert!(
        solved.positions() >= located.len() as u64,
        "{what}: the solver reaches fewer positions than play does"
    );
    let step = (solved.positions() as usize).div_ceil(SAMPLES).max(1);
    let checked = testing::records_equal_the_labelling(family, &store, step, true);
    assert!(checked > 0, "{what}: no record checked");
    if !game.scored() {
        testing::searches_equal_the_tiers(family, &store, step);
    }
    if family.exact().is_some() {
        testing::exact_equals_the_tiers(family, &store, step, 3);
    }
    [true, parents(family, tiered.as_ref(), &reached, what)]
}

/// Parents, where a tiered game offers them (unmoves): each move's position is a parent
/// of the move's child, and each parent has a move to the position.
fn parents(family: &Arc<dyn Family>, tiered: &dyn Tiers, reached: &[Pos], what: &str) -> bool {
    let game = tiered.game();
    let (root_tier, root_rank) = game.root();
    let mut parents = Vec::new();
    if !game.parents(root_tier, root_rank, &mut parents) {
        return false;
    }
    assert!(parents.is_empty(), "{what}: the start has parents");
    let locate = |pos: &Pos| tiered.locate(pos).expect("a position of the game");
    for pos in reached {
        let shown = spec_of(family, pos).to_string();
        let here = locate(pos);
        for child in children(family.as_ref(), pos) {
            let (t, r) = locate(&child);
            parents.clear();
            assert!(
                game.parents(t, r, &mut parents),
                "{what}: parents everywhere or nowhere"
            );
            assert!(
                parents.contains(&here),
                "{what}: {shown} is no parent of its move"
            );
        }
        parents.clear();
        game.parents(here.0, here.1, &mut parents);
        for &(t, r) in &parents {
            let parent = tiered.position(t, r);
            let moves = children(family.as_ref(), &parent);
            assert!(
                moves.iter().any(|c| locate(c) == here),
                "{what}: {} is a parent of {shown} without a move to it",
                spec_of(family, &parent)
            );
        }
    }
    true
}

/// A proved rule says which positions are lost and the winning moves, as the analyzer.
fn rule(family: &Arc<dyn Family>, reached: &[Pos], what: &str) -> bool {
    let Some(rule) = family.rule() else {
        return false;
    };
    assert!(
        !rule.theorem().trim().is_empty(),
        "{what}: a rule with no theorem"
    );
    let mut spoken = 0;
    for pos in sampled(reached) {
        // A rule of some positions only speaks of those (circular games: circles of 3 and
        // more).
        if !rule.applies(pos) {
            continue;
        }
        spoken += 1;
        let spec = spec_of(family, pos);
        let lost = report::solve(&spec, &Limits::default()).unwrap().outcome == Outcome::Loss;
        assert_eq!(rule.is_loss(pos), lost, "{what}: the rule at {spec}");
        let winning = rule.winning_moves(pos);
        assert_eq!(
            winning.is_empty(),
            lost,
            "{what}: the rule's moves at {spec}"
        );
        for child in &winning {
            assert!(
                family.is_move(pos, child),
                "{what}: the rule's move at {spec}"
            );
            assert!(
                rule.is_loss(child),
                "{what}: the rule's move at {spec} does not win"
            );
        }
    }
    assert!(spoken > 0, "{what}: the rule speaks of no position reached");
    true
}

/// Impartial games: a position's value is the mex of its children's, and the family's
/// Grundy source says the same through the XOR of its components' values; components
/// assemble back.
fn grundy(family: &Arc<dyn Family>, reached: &[Pos], what: &str) -> bool {
    for pos in reached {
        let parts = family.components(pos);
        let whole = family.assemble(&parts);
        assert_eq!(
            family.canonical(&whole),
            family.canonical(pos),
            "{what}: assemble"
        );
    }
    if family.kind() != Kind::Impartial || family.grundy() == GrundySource::None {
        return false;
    }
    // The values by brute force: depth first, memoised on canonical forms (the
    // impartial families of the registry are acyclic).
    let mut memo: HashMap<Pos, u64> = HashMap::new();
    fn mex_value(family: &dyn Family, pos: &Pos, memo: &mut HashMap<Pos, u64>) -> u64 {
        let key = family.canonical(pos);
        if let Some(&g) = memo.get(&key) {
            return g;
        }
        let mut values: Vec<u64> = children(family, pos)
            .iter()
            .map(|c| mex_value(family, c, memo))
            .collect();
        values.sort_unstable();
        values.dedup();
        let g = values
            .iter()
            .enumerate()
            .take_while(|&(i, &v)| i as u64 == v)
            .count() as u64;
        memo.insert(key, g);
        g
    }
    let components: Vec<Pos> = reached.iter().flat_map(|p| family.components(p)).collect();
    let oracle = crate::values::build(family, &components, 1 << 20, u128::MAX, &Control::default())
        .unwrap_or_else(|e| panic!("{what}: no Grundy oracle: {e}"));
    for pos in reached {
        let want = mex_value(family.as_ref(), pos, &mut memo);
        let got = family
            .components(pos)
            .iter()
            .fold(0, |acc, c| acc ^ oracle.value(c));
        assert_eq!(
            got,
            want,
            "{what}: the Grundy value of {}",
            spec_of(family, pos)
        );
        // The moves to a value, asked of a position of one component.
        let parts = family.components(pos);
        let [component] = parts.as_slice() else {
            continue;
        };
        for target in 0..=want {
            let (mut out, mut truncated) = (Vec::new(), false);
            family.moves_to_value(component, target, oracle.as_ref(), &mut out, &mut truncated);
            let listed: Vec<Pos> = out.iter().map(|c| family.canonical(c)).collect();
            for child in children(family.as_ref(), component) {
                let value = mex_value(family.as_ref(), &child, &mut memo);
                let key = family.canonical(&child);
                assert!(
                    value == target || !listed.contains(&key),
                    "{what}: a move to a value other than {target}"
                );
                assert!(
                    value != target || truncated || listed.contains(&key),
                    "{what}: a move to value {target} missing"
                );
            }
        }
    }
    true
}

#[test]
fn every_family_of_the_registry_keeps_the_contract() {
    // How many small specs each optional check met: every one must have met some, or
    // the test would pass by checking nothing.
    let mut met: [(&str, usize); 6] = [
        ("points left", 0),
        ("ranking", 0),
        ("tiers", 0),
        ("parents", 0),
        ("proved rule", 0),
        ("Grundy values", 0),
    ];
    for entry in registry::entries() {
        assert!(
            !entry.small.is_empty(),
            "`{}`: no small specs for the conformance test (`Entry::small`)",
            entry.name
        );
        for text in entry.examples.iter().chain(entry.small) {
            round_trip(text);
        }
        let mut tiered = Vec::new();
        for text in entry.small {
            let what = format!("`{text}` ({})", entry.name);
            let (family, root) = single(text);
            let reached = reach(family.as_ref(), &root, &what);
            rules(&family, &root, &reached, &what);
            drawing(&family, &reached, &what);
            // The tiers are the game from the family's start: once a family.
            let new = !tiered.contains(&family.name());
            tiered.push(family.name());
            let [has_tiers, has_parents] = if new {
                tiers(&family, &what)
            } else {
                [false, false]
            };
            let applied = [
                scores(&family, &reached, &what),
                ranking(&family, &root, &reached, &what),
                has_tiers,
                has_parents,
                rule(&family, &reached, &what),
                grundy(&family, &reached, &what),
            ];
            for (count, applied) in met.iter_mut().zip(applied) {
                count.1 += usize::from(applied);
            }
        }
    }
    for (check, count) in met {
        assert!(count > 0, "no small spec was checked for {check}");
    }
}
