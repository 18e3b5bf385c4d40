//! `grundy plot`: the Grundy sequence of a one-heap family as a scatter plot (SVG, or PNG
//! when a TrueType font is on the machine), with the period marked when one is known.

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use grundy::report::Table;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

/// A repetition to mark: the sequence repeats with `period` from heap `preperiod`.
#[derive(Debug, Clone, Copy)]
pub struct Marked {
    pub preperiod: u64,
    pub period: u64,
}

/// Fonts tried, in order: plotters lays text out with a TrueType font's metrics, for SVG
/// as for PNG. (CI installs Debian's fonts-dejavu-core.)
const FONTS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation/LiberationSans-Regular.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

fn load_font() -> Result<()> {
    for path in FONTS {
        if let Ok(bytes) = std::fs::read(path) {
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return Ok(());
            }
        }
    }
    bail!(
        "plots need a TrueType font to lay out their text, and none was found (tried {}); on Debian: apt-get install fonts-dejavu-core",
        FONTS.join(", ")
    )
}

/// Draws `table` into `out` (`.svg` or `.png`).
pub fn plot(table: &Table, marked: Option<Marked>, out: &Path) -> Result<()> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if matches!(ext.as_deref(), Some("svg" | "png")) {
        // The drawing library reports a file it cannot write as a debug dump of its error
        // types; try the file first, so that the message is the system's, with the name.
        if out.is_dir() {
            bail!("cannot write {}: it is a directory", out.display());
        }
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(out)
            .map_err(|e| anyhow!("cannot write {}: {e}", out.display()))?;
    }
    match ext.as_deref() {
        Some("svg") => {
            load_font()?;
            draw(
                SVGBackend::new(out, (1000, 500)).into_drawing_area(),
                table,
                marked,
            )
        }
        Some("png") => {
            load_font()?;
            draw(
                BitMapBackend::new(out, (1000, 500)).into_drawing_area(),
                table,
                marked,
            )
        }
        _ => bail!(
            "give an output file ending in .svg or .png, not `{}`",
            out.display()
        ),
    }
}

fn draw<DB: DrawingBackend>(
    area: DrawingArea<DB, plotters::coord::Shift>,
    table: &Table,
    marked: Option<Marked>,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow!("drawing failed: {e}");
    area.fill(&WHITE).map_err(fail)?;
    let n = table.grundy.len() as u64;
    let top = table.grundy.iter().copied().max().unwrap_or(0) + 1;
    let mut chart = ChartBuilder::on(&area)
        .caption(
            format!(
                "Grundy values of {}, heaps 0..{}",
                table.family,
                n.saturating_sub(1)
            ),
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0u64..n.max(1), 0u64..top)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc("heap size n")
        .y_desc("G(n)")
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(fail)?;
    if let Some(m) = marked {
        // The repeating part: shade one period from the pre-period on.
        let end = (m.preperiod + m.period).min(n);
        if m.preperiod < n {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(m.preperiod, 0), (end, top)],
                    BLUE.mix(0.08).filled(),
                )))
                .map_err(fail)?
                .label(format!("period {} from heap {}", m.period, m.preperiod))
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 15, y + 5)], BLUE.mix(0.3).filled())
                });
        }
    }
    let radius = if n > 2000 { 1 } else { 2 };
    chart
        .draw_series(table.grundy.iter().enumerate().map(|(h, &g)| {
            let colour = if g == 0 { RED } else { BLACK };
            Circle::new((h as u64, g), radius, colour.filled())
        }))
        .map_err(fail)?
        .label("G(n); red: losing (P-) positions")
        .legend(|(x, y)| Circle::new((x + 7, y), 3, RED.filled()));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(fail)?;
    area.present().map_err(fail)?;
    Ok(())
}
