//! A game's thermograph as the books draw it (Winning Ways, ch. 6; Siegel, *Combinatorial
//! Game Theory*, II.5): the temperature `t` upwards, the value across with **Left's side
//! on the left** (larger values to the left), the left wall (Left's stop of the game cooled
//! by `t`) and the right wall meeting at the temperature, then the mast up at the mean.

use std::path::Path;

use grundy::cgt::{Dyadic, Thermograph, Wall};
use plotters::prelude::*;

use super::{finish, load_font, open, Kind, PlotError};

/// The size of a drawing, in pixels.
const SIZE: (u32, u32) = (640, 480);

fn real(x: Dyadic) -> f64 {
    // Numerators and exponents of the table's numbers stay within 2^62: exact enough.
    x.numerator() as f64 / (1u64 << x.exponent()) as f64
}

/// The wall's value at `t`: through its points, then on with its tail's slope.
fn at(wall: &Wall, t: f64) -> f64 {
    let mut previous: Option<(f64, f64)> = None;
    for &(pt, pv) in &wall.points {
        let (pt, pv) = (real(pt), real(pv));
        if t <= pt {
            return match previous {
                Some((a, b)) if pt > a => b + (pv - b) * (t - a) / (pt - a),
                _ => pv,
            };
        }
        previous = Some((pt, pv));
    }
    let (a, b) = previous.unwrap_or((0.0, 0.0));
    b + wall.tail as f64 * (t - a)
}

/// The temperatures to draw a wall at: its breakpoints up to `top`, and `top`.
fn samples(wall: &Wall, top: f64) -> Vec<f64> {
    let mut ts: Vec<f64> = wall
        .points
        .iter()
        .map(|&(t, _)| real(t))
        .filter(|&t| t < top)
        .collect();
    ts.insert(0, 0.0);
    ts.push(top);
    ts.dedup();
    ts
}

/// The thermograph of a game as SVG text, titled `title` (the game as written).
///
/// # Errors
/// [`PlotError::NoFont`] without a TrueType font; [`PlotError::Draw`].
pub fn thermograph_svg(thermograph: &Thermograph, title: &str) -> Result<String, PlotError> {
    load_font()?;
    let mut text = String::new();
    draw(
        SVGBackend::with_string(&mut text, SIZE).into_drawing_area(),
        thermograph,
        title,
    )?;
    Ok(text)
}

/// Draws the thermograph into `out` (`.svg`, or `.png` with the feature `png`).
///
/// # Errors
/// As [`super::write`].
pub fn write_thermograph(
    thermograph: &Thermograph,
    title: &str,
    out: &Path,
) -> Result<(), PlotError> {
    match open(out)? {
        #[cfg(feature = "png")]
        Kind::Png => draw(
            BitMapBackend::new(out, SIZE).into_drawing_area(),
            thermograph,
            title,
        ),
        Kind::Svg => draw(
            SVGBackend::new(out, SIZE).into_drawing_area(),
            thermograph,
            title,
        ),
    }
}

fn draw<DB: DrawingBackend>(
    area: DrawingArea<DB, plotters::coord::Shift>,
    thermograph: &Thermograph,
    title: &str,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
    let temperature = real(thermograph.temperature);
    let mean = real(thermograph.mean);
    // The mast stands a third of the walls' height above the temperature (at least 1).
    let hot = temperature.max(0.0);
    let top = hot + (hot / 2.0).max(1.0);
    let walls = [&thermograph.left, &thermograph.right];
    let values: Vec<f64> = walls
        .iter()
        .flat_map(|w| samples(w, top).into_iter().map(|t| at(w, t)))
        .collect();
    let high = values.iter().copied().fold(mean, f64::max);
    let low = values.iter().copied().fold(mean, f64::min);
    let pad = ((high - low) / 6.0).max(0.5);
    // x is minus the value: Left's side (larger values) on the left.
    let x_range = (-high - pad)..(-low + pad);
    area.fill(&WHITE).map_err(fail)?;
    let mut chart = ChartBuilder::on(&area)
        .caption(format!("thermograph of {title}"), ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x_range, 0.0..top)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc("value (Left's side on the left)")
        .y_desc("temperature t")
        .x_label_formatter(&|x| format!("{}", (-x * 1000.0).round() / 1000.0))
        .y_label_formatter(&|t| format!("{}", (t * 1000.0).round() / 1000.0))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(fail)?;
    let blue = RGBColor(0, 114, 178);
    let red = RGBColor(213, 94, 0);
    for (wall, colour, label) in [
        (&thermograph.left, blue, "left wall (Left's stop)"),
        (&thermograph.right, red, "right wall (Right's stop)"),
    ] {
        let line: Vec<(f64, f64)> = samples(wall, top)
            .into_iter()
            .map(|t| (-at(wall, t), t))
            .collect();
        chart
            .draw_series(LineSeries::new(line, colour.stroke_width(3)))
            .map_err(fail)?
            .label(label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 15, y)], colour.stroke_width(3)));
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            [(-mean, hot), (-mean, top)],
            BLACK.stroke_width(2),
        )))
        .map_err(fail)?
        .label(format!(
            "mast: mean {}, temperature {}",
            thermograph.mean, thermograph.temperature
        ))
        .legend(|(x, y)| PathElement::new([(x, y), (x + 15, y)], BLACK.stroke_width(2)));
    finish(&mut chart, &area)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::cgt::{thermograph, Table};

    /// `{2 | -1}`: walls from the stops 2 and -1 at t = 0, meeting at temperature 3/2 over
    /// the mean 1/2.
    #[test]
    fn the_walls_meet_at_the_temperature_over_the_mean() {
        let mut t = Table::new();
        let (two, minus_one) = (t.integer(2).unwrap(), t.integer(-1).unwrap());
        let g = t.game(&[two], &[minus_one]);
        let found = thermograph(&t, g, &mut Default::default()).unwrap();
        assert_eq!(real(found.mean), 0.5);
        assert_eq!(real(found.temperature), 1.5);
        assert_eq!(at(&found.left, 0.0), 2.0);
        assert_eq!(at(&found.right, 0.0), -1.0);
        assert_eq!(at(&found.left, 1.5), 0.5);
        assert_eq!(at(&found.right, 1.5), 0.5);
        assert_eq!(at(&found.left, 3.0), 0.5, "the mast");
        match thermograph_svg(&found, "{2|-1}") {
            Err(PlotError::NoFont) => eprintln!("skipped: no TrueType font on this machine"),
            Err(e) => panic!("{e}"),
            Ok(text) => {
                assert!(text.contains("mean 1/2, temperature 3/2"), "{text}");
                assert!(text.contains("thermograph of {2|-1}"));
            }
        }
    }
}
