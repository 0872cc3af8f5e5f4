//! numpy in and out: input arrays checked (shape, dtype, finite values; a message naming the
//! array and the row), results handed to numpy as whole arrays (no per-element Python object).

use glam::DVec3;
use numpy::{
    Element, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;

use crate::error::argument;

/// The shape an input must have: `rows` (any number when `None`) of `cols` values each, or a
/// vector of `rows` values when `cols` is 0.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Rows required, or any number.
    pub(crate) rows: Option<usize>,
    /// Values per row; 0 for a one-dimensional array.
    pub(crate) cols: usize,
}

impl Shape {
    /// `(rows, cols)`, or `(rows,)` when `cols` is 0.
    pub(crate) fn new(rows: Option<usize>, cols: usize) -> Self {
        Self { rows, cols }
    }

    fn text(self) -> String {
        let rows = self.rows.map_or_else(|| "N".to_string(), |r| r.to_string());
        if self.cols == 0 {
            format!("({rows},)")
        } else {
            format!("({rows}, {})", self.cols)
        }
    }

    fn matches(self, shape: &[usize]) -> bool {
        let rows_ok = |r: usize| self.rows.is_none_or(|want| want == r);
        match (self.cols, shape) {
            (0, [r]) => rows_ok(*r),
            (c, [r, k]) => c > 0 && rows_ok(*r) && *k == c,
            _ => false,
        }
    }

    /// Where element `i` of the flattened array sits, for messages: `row 3` or `[3]`.
    fn place(self, i: usize) -> String {
        match i.checked_div(self.cols) {
            Some(row) => format!(" row {row}"),
            None => format!("[{i}]"),
        }
    }
}

/// `obj` as a numpy array (`numpy.asarray`), its failure named after `name`.
fn as_array<'py>(
    py: Python<'py>,
    name: &str,
    obj: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy")?
        .call_method1("asarray", (obj,))
        .map_err(|e| argument(format!("{name}: not an array of numbers ({e})")))
}

/// The dtype's kind character (`f`, `i`, `u`, `b`, ...) and its name, and the shape.
fn describe(name: &str, array: &Bound<'_, PyAny>) -> PyResult<(u8, String, Vec<usize>)> {
    let untyped = array
        .cast::<PyUntypedArray>()
        .map_err(|_| argument(format!("{name}: not a numpy array")))?;
    let dtype = untyped.dtype();
    Ok((dtype.kind(), dtype.to_string(), untyped.shape().to_vec()))
}

/// The array's values as a contiguous `Vec` of `dtype` (a numpy type name), after the shape check.
fn values<T: Element + Copy>(
    py: Python<'_>,
    name: &str,
    array: &Bound<'_, PyAny>,
    shape: Shape,
    dtype: &str,
) -> PyResult<Vec<T>> {
    let (_, _, got) = describe(name, array)?;
    if !shape.matches(&got) {
        let got: Vec<String> = got.iter().map(ToString::to_string).collect();
        let got = if got.len() == 1 {
            format!("({},)", got[0])
        } else {
            format!("({})", got.join(", "))
        };
        return Err(argument(format!(
            "{name}: expected shape {}, got {got}",
            shape.text()
        )));
    }
    let contiguous = py
        .import("numpy")?
        .call_method1("ascontiguousarray", (array, dtype))?;
    let typed = contiguous.cast::<PyArrayDyn<T>>().map_err(PyErr::from)?;
    let read = typed.readonly();
    Ok(read
        .as_slice()
        .map_err(|e| argument(format!("{name}: {e}")))?
        .to_vec())
}

/// A real-valued input (integer or floating dtype) of `shape`, as f64, every value finite.
pub(crate) fn reals(
    py: Python<'_>,
    name: &str,
    obj: &Bound<'_, PyAny>,
    shape: Shape,
) -> PyResult<Vec<f64>> {
    let array = as_array(py, name, obj)?;
    let (kind, dtype, _) = describe(name, &array)?;
    if !matches!(kind, b'f' | b'i' | b'u') {
        return Err(argument(format!(
            "{name}: dtype {dtype} is not a real number type (use float64)"
        )));
    }
    let v: Vec<f64> = values(py, name, &array, shape, "float64")?;
    if let Some(i) = v.iter().position(|x| !x.is_finite()) {
        return Err(argument(format!(
            "{name}{}: {} is not finite",
            shape.place(i),
            v[i]
        )));
    }
    Ok(v)
}

/// A real-valued vector of `rows` values, or one number given to every row.
pub(crate) fn reals_or_scalar(
    py: Python<'_>,
    name: &str,
    obj: &Bound<'_, PyAny>,
    rows: usize,
) -> PyResult<Vec<f64>> {
    let array = as_array(py, name, obj)?;
    let (_, _, shape) = describe(name, &array)?;
    if shape.is_empty() {
        let one = reals(
            py,
            name,
            &array.call_method1("reshape", (1,))?,
            Shape::new(Some(1), 0),
        )?;
        return Ok(vec![one[0]; rows]);
    }
    reals(py, name, &array, Shape::new(Some(rows), 0))
}

/// Non-negative integer indices of `shape` (integer dtype), each below `limit` when given (the
/// message then names `what` has `limit` entries).
pub(crate) fn indices(
    py: Python<'_>,
    name: &str,
    obj: &Bound<'_, PyAny>,
    shape: Shape,
    limit: Option<(usize, &str)>,
) -> PyResult<Vec<usize>> {
    let array = as_array(py, name, obj)?;
    let (kind, dtype, _) = describe(name, &array)?;
    if !matches!(kind, b'i' | b'u') {
        return Err(argument(format!(
            "{name}: dtype {dtype} is not an integer type (use int64)"
        )));
    }
    let v: Vec<i64> = values(py, name, &array, shape, "int64")?;
    let mut out = Vec::with_capacity(v.len());
    for (i, &x) in v.iter().enumerate() {
        let index = usize::try_from(x)
            .map_err(|_| argument(format!("{name}{}: index {x} is negative", shape.place(i))))?;
        if let Some((len, what)) = limit {
            if index >= len {
                return Err(argument(format!(
                    "{name}{}: index {index} is out of range ({what} has {len})",
                    shape.place(i)
                )));
            }
        }
        out.push(index);
    }
    Ok(out)
}

/// A boolean vector of `rows` values (dtype bool), or one bool given to every row.
pub(crate) fn flags(
    py: Python<'_>,
    name: &str,
    obj: &Bound<'_, PyAny>,
    rows: usize,
) -> PyResult<Vec<bool>> {
    let array = as_array(py, name, obj)?;
    let (kind, dtype, shape) = describe(name, &array)?;
    if kind != b'b' {
        return Err(argument(format!("{name}: dtype {dtype} is not bool")));
    }
    if shape.is_empty() {
        let one: bool = array.call_method0("item")?.extract()?;
        return Ok(vec![one; rows]);
    }
    values(py, name, &array, Shape::new(Some(rows), 0), "bool")
}

/// Rows of three values as glam vectors.
pub(crate) fn to_vectors(flat: &[f64]) -> Vec<DVec3> {
    flat.chunks_exact(3).map(DVec3::from_slice).collect()
}

/// `(N, 3)` float64 array of `vectors`.
pub(crate) fn vectors_out<'py>(
    py: Python<'py>,
    vectors: &[DVec3],
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let mut flat = Vec::with_capacity(3 * vectors.len());
    for v in vectors {
        flat.extend_from_slice(&v.to_array());
    }
    PyArray1::from_vec(py, flat).reshape([vectors.len(), 3])
}

/// `(N,)` array of `values`, moved into numpy without a copy.
pub(crate) fn vector_out<T: Element>(py: Python<'_>, values: Vec<T>) -> Bound<'_, PyArray1<T>> {
    PyArray1::from_vec(py, values)
}
