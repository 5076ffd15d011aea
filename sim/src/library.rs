//! A loaded model: the shared library Verilator's build produced and its port table, shared
//! by a [`Model`](crate::Model) and every [`Sim`](crate::Sim) made from it.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::ffi::Library;
use crate::ports::PortInfo;

/// What a [`Model`] and its [`Sim`]s share.
pub(crate) struct ModelInner {
    pub lib: Library,
    pub ports: Vec<PortInfo>,
    pub index: HashMap<String, usize>,
    pub has_clock: bool,
    pub has_trace: bool,
    pub dir: PathBuf,
    pub top: String,
}

