//! Whitespace-separated numbers read with their lines and columns: the contest boards
//! built from a file (IOI 2001 "Score", POI 1999 "Polygons"), each of which turns a
//! [`Misread`] into its own error type.

/// What is wrong at a place of the text (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Misread {
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) message: String,
}

/// The text, and the place read up to.
pub(crate) struct Words<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    column: usize,
}

impl<'a> Words<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Words {
            text,
            at: 0,
            line: 1,
            column: 1,
        }
    }

    /// `message` at the place read up to.
    pub(crate) fn error(&self, message: impl Into<String>) -> Misread {
        Misread {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }

    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while self.at < bytes.len() && bytes[self.at].is_ascii_whitespace() {
            if bytes[self.at] == b'\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
            self.at += 1;
        }
    }

    /// The next number, at most `max`, with its line and column; `what` names it in
    /// errors (a word that is not one is quoted cut to 20 characters).
    pub(crate) fn number(&mut self, what: &str, max: u64) -> Result<(u64, usize, usize), Misread> {
        self.skip_space();
        let (line, column) = (self.line, self.column);
        let bytes = self.text.as_bytes();
        let start = self.at;
        while self.at < bytes.len() && !bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
        let word = &self.text[start..self.at];
        self.column += word.chars().count();
        let error = |message: String| Misread {
            line,
            column,
            message,
        };
        if word.is_empty() {
            return Err(error(format!(
                "expected {what}, found the end of the input"
            )));
        }
        let value: u64 = word.parse().map_err(|_| {
            let cut: String = word.chars().take(20).collect();
            error(format!("expected {what}, found `{}`", cut.escape_debug()))
        })?;
        if value > max {
            return Err(error(format!(
                "{what} must be at most {max}, found {value}"
            )));
        }
        Ok((value, line, column))
    }

    /// Nothing but white space left; else an error at what is there, "expected the end
    /// of the input after {after}".
    pub(crate) fn end(&mut self, after: &str) -> Result<(), Misread> {
        self.skip_space();
        if self.at < self.text.len() {
            return Err(self.error(format!("expected the end of the input after {after}")));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_come_with_their_places_and_errors_point_at_them() {
        let mut w = Words::new("3 12\n  7 x\n");
        assert_eq!(w.number("n", 10).unwrap(), (3, 1, 1));
        let e = w.number("a value", 10).unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        assert_eq!(e.message, "a value must be at most 10, found 12");
        assert_eq!(w.number("a value", 10).unwrap(), (7, 2, 3));
        let e = w.number("a value", 10).unwrap_err();
        assert_eq!(
            (e.line, e.column, &*e.message),
            (2, 5, "expected a value, found `x`")
        );
        let e = w.number("a value", 10).unwrap_err();
        assert_eq!(e.message, "expected a value, found the end of the input");
        let mut w = Words::new("1\n\n  2");
        w.number("n", 5).unwrap();
        let e = w.end("the values").unwrap_err();
        assert_eq!(
            (e.line, e.column, &*e.message),
            (3, 3, "expected the end of the input after the values")
        );
        assert!(Words::new(" 4 \n").end("x").is_err());
        let mut w = Words::new(" 4 \n");
        w.number("n", 5).unwrap();
        assert!(w.end("x").is_ok());
    }
}
