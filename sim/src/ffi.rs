//! The C ABI of a simulation library (`cpp/wg_shim.cpp`): loading it and calling it.

use std::ffi::{c_char, c_void, CStr};
use std::path::Path;

use crate::ports::{Dir, PortInfo};
use crate::SimError;

/// Must equal `WG_ABI_VERSION` in `cpp/wg_shim.cpp`.
const ABI_VERSION: u32 = 1;

/// An instance in the library (`WgInst`): a VerilatedContext and a model.
#[repr(C)]
pub(crate) struct Inst {
    _opaque: [u8; 0],
}

/// Result of an evaluating call (`WgStatus` in the shim).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Ok,
    Died,
    Finished,
    NoClock,
    NoTrace,
    IoError,
    Unknown(i32),
}

impl From<i32> for Status {
    fn from(code: i32) -> Status {
        match code {
            0 => Status::Ok,
            1 => Status::Died,
            2 => Status::Finished,
            3 => Status::NoClock,
            4 => Status::NoTrace,
            5 => Status::IoError,
            other => Status::Unknown(other),
        }
    }
}

/// The shim's entry points, copied out of the library (valid while `Library::lib` lives).
pub(crate) struct Api {
    pub create: unsafe extern "C" fn(*mut i32) -> *mut Inst,
    pub destroy: unsafe extern "C" fn(*mut Inst),
    pub port_pointers: unsafe extern "C" fn(*mut Inst, *mut *mut c_void),
    pub message: unsafe extern "C" fn(*mut Inst) -> *const c_char,
    pub eval: unsafe extern "C" fn(*mut Inst) -> i32,
    pub tick: unsafe extern "C" fn(*mut Inst) -> i32,
    pub trace_open: unsafe extern "C" fn(*mut Inst, *const c_char) -> i32,
    pub trace_close: unsafe extern "C" fn(*mut Inst),
    has_trace: unsafe extern "C" fn() -> u32,
    port_count: unsafe extern "C" fn() -> u32,
    port_desc: unsafe extern "C" fn(u32, *mut *const c_char, *mut u32, *mut u32),
}

/// A loaded simulation library.
pub(crate) struct Library {
    pub api: Api,
    _lib: libloading::Library,
}

impl Library {
    /// Loads the library at `path` and checks its ABI version.
    pub fn open(path: &Path) -> Result<Library, SimError> {
        let load_err = |message: String| SimError::Load {
            path: path.to_path_buf(),
            message,
        };
        // SAFETY: the library is one this crate built from cpp/wg_shim.cpp; its static
        // initialisers are the Verilator runtime's, which have no preconditions.
        // RTLD_NOW reports unresolved symbols here rather than at the first call.
        let lib: libloading::Library = unsafe {
            libloading::os::unix::Library::open(
                Some(path),
                libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL,
            )
        }
        .map_err(|e| load_err(e.to_string()))?
        .into();
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the symbol's type is the one declared for it in wg_shim.cpp.
                *unsafe { lib.get($name) }.map_err(|e| load_err(e.to_string()))?
            };
        }
        let abi: unsafe extern "C" fn() -> u32 = sym!(b"wg_abi_version\0");
        // SAFETY: no arguments, returns a constant.
        let found = unsafe { abi() };
        if found != ABI_VERSION {
            return Err(load_err(format!(
                "shim ABI version {found}, expected {ABI_VERSION}"
            )));
        }
        let api = Api {
            create: sym!(b"wg_create\0"),
            destroy: sym!(b"wg_destroy\0"),
            port_pointers: sym!(b"wg_port_pointers\0"),
            message: sym!(b"wg_message\0"),
            eval: sym!(b"wg_eval\0"),
            tick: sym!(b"wg_tick\0"),
            trace_open: sym!(b"wg_trace_open\0"),
            trace_close: sym!(b"wg_trace_close\0"),
            has_trace: sym!(b"wg_has_trace\0"),
            port_count: sym!(b"wg_port_count\0"),
            port_desc: sym!(b"wg_port_desc\0"),
        };
        Ok(Library { api, _lib: lib })
    }

    /// Whether the library was built with tracing.
    pub fn has_trace(&self) -> bool {
        // SAFETY: no arguments, returns a constant.
        unsafe { (self.api.has_trace)() != 0 }
    }

    /// The port table, in the library's order.
    pub fn ports(&self) -> Vec<PortInfo> {
        // SAFETY: no arguments, returns a constant.
        let count = unsafe { (self.api.port_count)() };
        (0..count)
            .map(|i| {
                let (mut name, mut dir, mut width) = (std::ptr::null(), 0u32, 0u32);
                // SAFETY: i < count; the name is a static NUL-terminated string.
                let name = unsafe {
                    (self.api.port_desc)(i, &mut name, &mut dir, &mut width);
                    CStr::from_ptr(name).to_string_lossy().into_owned()
                };
                let dir = if dir == 0 { Dir::In } else { Dir::Out };
                PortInfo {
                    name,
                    dir,
                    width: width as usize,
                }
            })
            .collect()
    }

    /// The instance's last message (why it died or finished).
    ///
    /// # Safety
    /// `inst` must be a live instance of this library.
    pub unsafe fn message(&self, inst: *mut Inst) -> String {
        CStr::from_ptr((self.api.message)(inst))
            .to_string_lossy()
            .into_owned()
    }
}
