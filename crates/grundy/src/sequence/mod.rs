//! Integer sequences, with no game in sight: periods (ordinary and arithmetic) of Grundy
//! sequences, and the recurrence shapes and rule players of the special method. The
//! catalog, the Grundy engines and the pattern search all build on these.

pub mod period;
pub mod recurrence;
