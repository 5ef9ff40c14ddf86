//! `device` (torch.device) and the PrivateUse1 backend's name.

use crate::dispatch::DispatchKey;
use crate::python::errors::{clip, quote, type_name};
use parking_lot::RwLock;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyLong, PyString};

static PRIVATEUSE1_NAME: RwLock<Option<String>> = RwLock::new(None);

/// The current name of the PrivateUse1 backend (`privateuseone` unless renamed).
fn privateuse1_name() -> String {
    PRIVATEUSE1_NAME
        .read()
        .clone()
        .unwrap_or_else(|| "privateuseone".to_string())
}

/// Rename the PrivateUse1 backend's device type (torch's `rename_privateuse1_backend`).
#[pyfunction]
pub fn _rename_privateuse1_backend(name: &Bound<'_, PyAny>) -> PyResult<()> {
    let Ok(name) = name.downcast::<PyString>() else {
        return Err(PyRuntimeError::new_err(format!(
            "_rename_privateuse1_backend expects a str, but got {}",
            type_name(name)
        )));
    };
    let name = name.to_str()?;
    let known = ["cpu", "cuda", "meta", "privateuseone"];
    if known.contains(&name)
        || name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Err(PyRuntimeError::new_err(format!(
            "rename_privateuse1_backend: '{}' is not a valid new backend name (it must be a \
             fresh identifier other than {known:?})",
            clip(name)
        )));
    }
    let mut slot = PRIVATEUSE1_NAME.write();
    match slot.as_deref() {
        Some(prev) if prev != name => Err(PyRuntimeError::new_err(format!(
            "rename_privateuse1_backend: the PrivateUse1 backend is already named '{prev}' and \
             can only be renamed once"
        ))),
        _ => {
            *slot = Some(name.to_string());
            Ok(())
        }
    }
}

/// Backend key of a device type string (the core's device types, See Note
/// [One backend list]; a renamed PrivateUse1 backend's name also reaches
/// PrivateUse1).
pub fn backend_of_type(ty: &str) -> Option<DispatchKey> {
    DispatchKey::of_device_type(ty).or_else(|| {
        (PRIVATEUSE1_NAME.read().as_deref() == Some(ty)).then_some(DispatchKey::PrivateUse1)
    })
}

/// A device: type plus optional index, as `torch.device`.
#[pyclass(name = "device", module = "opyard", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyDevice {
    ty: String,
    index: Option<i64>,
    key: u8,
}

/// `device`'s class, found once (Note [Class pointers kept], `ffi/type_slots.rs`).
pub static DEVICE: crate::python::ffi::type_slots::ClassPtr<PyDevice> =
    crate::python::ffi::type_slots::ClassPtr::new();

impl PyDevice {
    /// The device type as stored (`privateuseone` for a renamed PrivateUse1 backend).
    pub fn type_str(&self) -> &str {
        &self.ty
    }

    /// The backend key this device dispatches to.
    pub fn key(&self) -> DispatchKey {
        DispatchKey::from_index(self.key as usize).unwrap_or(DispatchKey::CPU)
    }

    /// Parse `type` or `type:index` (torch's device strings).
    pub fn parse(spec: &str, index: Option<i64>) -> PyResult<Self> {
        let (ty, idx) = match spec.split_once(':') {
            Some((t, i)) => {
                // torch's device strings carry a non-negative decimal index.
                let digits = !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit());
                let i = i.parse::<i64>().ok().filter(|_| digits).ok_or_else(|| {
                    PyRuntimeError::new_err(format!("Invalid device string: '{}'", clip(spec)))
                })?;
                if index.is_some() {
                    return Err(PyRuntimeError::new_err(format!(
                        "type (string) must not include an index because index was passed \
                         explicitly: {}",
                        clip(spec)
                    )));
                }
                (t, Some(i))
            }
            None => (spec, index),
        };
        let key = backend_of_type(ty).ok_or_else(|| bad_device(spec))?;
        if idx.is_some_and(|i| i < 0) {
            return Err(PyRuntimeError::new_err(format!(
                "Device index must not be negative (got {} for '{}')",
                idx.unwrap_or_default(),
                clip(ty)
            )));
        }
        let ty = if key == DispatchKey::PrivateUse1 {
            "privateuseone"
        } else {
            ty
        };
        Ok(PyDevice {
            ty: ty.to_string(),
            index: idx,
            key: key as u8,
        })
    }
}

fn bad_device(spec: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "Expected one of cpu, cuda, meta, {} device type at start of device string: {}",
        privateuse1_name(),
        clip(spec)
    ))
}

/// A device index argument of `device()`: an int that fits an int64.
fn device_index(v: &Bound<'_, PyAny>, position: usize) -> PyResult<i64> {
    if !v.is_instance_of::<PyLong>() {
        return Err(PyTypeError::new_err(format!(
            "device(): argument 'index' (position {position}) must be int, not {}",
            type_name(v)
        )));
    }
    v.extract::<i64>().map_err(|_| {
        PyRuntimeError::new_err(format!(
            "device(): index {} is out of range for a device index",
            quote(v)
        ))
    })
}

/// The backend key a `Device` argument selects (`None` → CPU).
pub fn device_key(obj: &Bound<'_, PyAny>) -> PyResult<DispatchKey> {
    if obj.is_none() {
        return Ok(DispatchKey::CPU);
    }
    if let Some(d) = DEVICE.downcast(obj) {
        return Ok(d.get().key());
    }
    if let Ok(s) = obj.downcast::<PyString>() {
        return Ok(PyDevice::parse(s.to_str()?, None)?.key());
    }
    Err(PyTypeError::new_err(format!(
        "expected a device (opyard.device or str), got {}",
        type_name(obj)
    )))
}

#[pymethods]
impl PyDevice {
    #[new]
    #[pyo3(signature = (r#type, index=None))]
    fn new(r#type: &Bound<'_, PyAny>, index: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        if let Ok(d) = r#type.downcast::<PyDevice>() {
            return Ok(d.get().clone());
        }
        if r#type.is_instance_of::<PyLong>() {
            return PyDevice::parse("cuda", Some(device_index(r#type, 1)?));
        }
        let Ok(s) = r#type.downcast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "device() received an invalid combination of arguments - got ({}), but expected \
                 one of: (opyard.device device), (str type, int index = None), (int index)",
                type_name(r#type)
            )));
        };
        let index = index
            .filter(|i| !i.is_none())
            .map(|i| device_index(i, 2))
            .transpose()?;
        PyDevice::parse(s.to_str()?, index)
    }

    #[getter]
    fn r#type(&self) -> String {
        if self.key() == DispatchKey::PrivateUse1 {
            privateuse1_name()
        } else {
            self.ty.clone()
        }
    }

    #[getter]
    fn index(&self) -> Option<i64> {
        self.index
    }

    fn __str__(&self) -> String {
        match self.index {
            Some(i) => format!("{}:{i}", self.r#type()),
            None => self.r#type(),
        }
    }

    fn __repr__(&self) -> String {
        match self.index {
            Some(i) => format!("device(type='{}', index={i})", self.r#type()),
            None => format!("device(type='{}')", self.r#type()),
        }
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(PyObject, (String,))> {
        let cls = py.get_type_bound::<PyDevice>().into_any().unbind();
        Ok((cls, (self.__str__(),)))
    }
}
