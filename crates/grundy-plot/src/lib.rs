//! The Grundy sequence of a one-heap family as a scatter plot, with the period marked when
//! one is known, and a combinatorial game's thermograph: SVG text (for the CLI's `plot` and
//! Python's inline plots), or a `.svg` / `.png` file (PNG with the feature `png`). A front-end crate like `grundy-io`: the
//! library computes the table, this crate only draws it.
//!
//! ```no_run
//! let table = grundy::report::table("octal[0.77]", 100, &Default::default()).unwrap();
//! let marked = grundy_plot::marked("octal[0.77]", &Default::default());
//! let svg = grundy_plot::svg(&table, marked).unwrap();
//! assert!(svg.contains("<circle"));
//! ```
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use grundy::explore::Control;
use grundy::report::Table;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

mod thermo;
pub use thermo::{thermograph_svg, write_thermograph};

/// A repetition to mark: the sequence repeats with `period` from heap `preperiod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marked {
    /// The first heap of the repeating part.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
}

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlotError {
    /// No TrueType font to lay the text out with.
    #[error("plots need a TrueType font to lay out their text, and none was found (tried {}); on Debian: apt-get install fonts-dejavu-core", FONTS.join(", "))]
    NoFont,
    /// The output file's name ends in neither `.svg` nor `.png`.
    #[error("give an output file ending in .svg or .png, not `{}`", .0.display())]
    Extension(PathBuf),
    /// The output file cannot be written.
    #[error("cannot write {}: {why}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The system's words.
        why: String,
    },
    /// The drawing library failed.
    #[error("drawing failed: {0}")]
    Draw(String),
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

/// Registers the first font found, once per process (the font's bytes live as long).
fn load_font() -> Result<(), PlotError> {
    static LOADED: OnceLock<bool> = OnceLock::new();
    let found = *LOADED.get_or_init(|| {
        FONTS.iter().any(|path| {
            std::fs::read(path).is_ok_and(|bytes| {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                register_font("sans-serif", FontStyle::Normal, bytes).is_ok()
            })
        })
    });
    if found {
        Ok(())
    } else {
        Err(PlotError::NoFont)
    }
}

/// The period the special method finds for `family` within its default search, to mark on
/// a plot; `None` if it finds none (or the family has no pattern).
#[must_use]
pub fn marked(family: &str, control: &Control<'_>) -> Option<Marked> {
    let search = grundy::pattern::default_up_to(family);
    let p = grundy::pattern::discover(family, search, control).ok()?;
    Some(Marked {
        preperiod: p.preperiod?,
        period: p.period?,
    })
}

/// The plot of `table` as SVG text, 1000 × 500.
///
/// # Errors
/// [`PlotError::NoFont`] without a TrueType font; [`PlotError::Draw`].
pub fn svg(table: &Table, marked: Option<Marked>) -> Result<String, PlotError> {
    load_font()?;
    let mut text = String::new();
    draw(
        SVGBackend::with_string(&mut text, (1000, 500)).into_drawing_area(),
        table,
        marked,
    )?;
    Ok(text)
}

/// Draws `table` into `out` (`.svg`, or `.png` with the feature `png`).
///
/// # Errors
/// [`PlotError::Extension`] for another file name, [`PlotError::Write`] if the file cannot
/// be written, as [`svg`] otherwise.
pub fn write(table: &Table, marked: Option<Marked>, out: &Path) -> Result<(), PlotError> {
    match open(out)? {
        #[cfg(feature = "png")]
        Kind::Png => draw(
            BitMapBackend::new(out, (1000, 500)).into_drawing_area(),
            table,
            marked,
        ),
        Kind::Svg => draw(
            SVGBackend::new(out, (1000, 500)).into_drawing_area(),
            table,
            marked,
        ),
    }
}

/// What a plot file is.
enum Kind {
    Svg,
    #[cfg(feature = "png")]
    Png,
}

/// Checks that `out` names a file a plot can be written to (its extension, a file the
/// system lets us write) and loads the font.
fn open(out: &Path) -> Result<Kind, PlotError> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let kind = match ext.as_deref() {
        Some("svg") => Kind::Svg,
        #[cfg(feature = "png")]
        Some("png") => Kind::Png,
        _ => return Err(PlotError::Extension(out.to_path_buf())),
    };
    let cannot = |why: String| PlotError::Write {
        path: out.to_path_buf(),
        why,
    };
    // The drawing library reports a file it cannot write as a debug dump of its error
    // types; try the file first, so that the message is the system's, with the name.
    if out.is_dir() {
        return Err(cannot("it is a directory".into()));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(out)
        .map_err(|e| cannot(e.to_string()))?;
    load_font()?;
    Ok(kind)
}

fn draw<DB: DrawingBackend>(
    area: DrawingArea<DB, plotters::coord::Shift>,
    table: &Table,
    marked: Option<Marked>,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
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
    finish(&mut chart, &area)
}

/// The series' legend in the upper left, then the drawing presented.
fn finish<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    area: &DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(fail)?;
    area.present().map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_text_has_every_heap_and_the_period() {
        let table = grundy::report::table("bounded-nim[4]", 60, &Default::default()).unwrap();
        let marked = marked("bounded-nim[4]", &Control::default());
        assert_eq!(
            marked,
            Some(Marked {
                preperiod: 0,
                period: 5
            })
        );
        match svg(&table, marked) {
            Err(PlotError::NoFont) => eprintln!("skipped: no TrueType font on this machine"),
            Err(e) => panic!("{e}"),
            Ok(text) => {
                // 61 points and the legend's marker; the period's label.
                assert_eq!(text.matches("<circle").count(), 62);
                assert!(text.contains("period 5 from heap 0"), "{text}");
            }
        }
    }
}
