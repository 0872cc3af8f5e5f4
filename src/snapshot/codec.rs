//! The little-endian encoding of a snapshot's payload: numbers in their exact bits, lists with
//! their length first, and a reader whose every error names the field it was reading.

use glam::DVec3;

use crate::error::{Error, Result};
use crate::model::{Actuator, DragSpring, SpeedLimit};

/// Appends values to a payload.
#[derive(Debug, Default)]
pub(crate) struct Writer {
    pub(crate) bytes: Vec<u8>,
}

impl Writer {
    pub(crate) fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }

    pub(crate) fn bool(&mut self, v: bool) {
        self.u8(u8::from(v));
    }

    pub(crate) fn u64(&mut self, v: u64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn f64(&mut self, v: f64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn len(&mut self, n: usize) {
        self.u64(n as u64);
    }

    pub(crate) fn f64s(&mut self, v: &[f64]) {
        self.len(v.len());
        v.iter().for_each(|&x| self.f64(x));
    }

    pub(crate) fn vec3s(&mut self, v: &[DVec3]) {
        self.len(v.len());
        for p in v {
            p.to_array().iter().for_each(|&x| self.f64(x));
        }
    }

    pub(crate) fn bytes(&mut self, v: &[u8]) {
        self.len(v.len());
        self.bytes.extend_from_slice(v);
    }

    /// The drag spring: a flag, then its mass, target (m), stiffness (N/m) and damping
    /// (N*s/m).
    pub(crate) fn drag(&mut self, drag: Option<DragSpring>) {
        self.bool(drag.is_some());
        if let Some(d) = drag {
            self.u64(d.mass as u64);
            self.vec3s(&[d.target]);
            self.f64(d.stiffness);
            self.f64(d.damping);
        }
    }

    /// A value as JSON text (serde_json keeps every f64's bits: `float_roundtrip`).
    pub(crate) fn json<T: serde::Serialize>(&mut self, v: &T) {
        let text = serde_json::to_vec(v).expect("plain data serialises");
        self.bytes(&text);
    }
}

/// Reads a payload back; every error is [`Error::Snapshot`] naming the field.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// What is read, for errors ("snapshot", a file name).
    origin: &'a str,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8], origin: &'a str) -> Self {
        Self {
            bytes,
            at: 0,
            origin,
        }
    }

    /// An error about this payload.
    pub(crate) fn error(&self, reason: String) -> Error {
        Error::Snapshot {
            origin: self.origin.to_owned(),
            reason,
        }
    }

    fn take(&mut self, n: usize, field: &str) -> Result<&'a [u8]> {
        let left = self.bytes.len() - self.at;
        if n > left {
            return Err(self.error(format!(
                "its payload ends inside {field} (needs {n} more bytes, has {left})"
            )));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    pub(crate) fn u8(&mut self, field: &str) -> Result<u8> {
        Ok(self.take(1, field)?[0])
    }

    pub(crate) fn bool(&mut self, field: &str) -> Result<bool> {
        match self.u8(field)? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(self.error(format!("{field} is {v}, not 0 or 1"))),
        }
    }

    pub(crate) fn u64(&mut self, field: &str) -> Result<u64> {
        let b = self.take(8, field)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    pub(crate) fn f64(&mut self, field: &str) -> Result<f64> {
        Ok(f64::from_bits(self.u64(field)?))
    }

    /// A list length, checked against what the rest of the payload can hold at `item` bytes
    /// each (so a corrupted length is an error, not an allocation).
    pub(crate) fn len(&mut self, field: &str, item: usize) -> Result<usize> {
        let n = self.u64(field)?;
        let left = (self.bytes.len() - self.at) as u64;
        if n.saturating_mul(item as u64) > left {
            return Err(self.error(format!(
                "{field} claims {n} items, more than its payload holds"
            )));
        }
        Ok(n as usize)
    }

    /// A list of exactly `expected` items when `expected` is `Some`.
    fn counted(&mut self, field: &str, item: usize, expected: Option<usize>) -> Result<usize> {
        let n = self.len(field, item)?;
        match expected {
            Some(e) if e != n => Err(self.error(format!("{field} has {n} items, expected {e}"))),
            _ => Ok(n),
        }
    }

    pub(crate) fn f64s(&mut self, field: &str, expected: Option<usize>) -> Result<Vec<f64>> {
        let n = self.counted(field, 8, expected)?;
        (0..n).map(|_| self.f64(field)).collect()
    }

    pub(crate) fn vec3s(&mut self, field: &str, expected: Option<usize>) -> Result<Vec<DVec3>> {
        let n = self.counted(field, 24, expected)?;
        (0..n)
            .map(|_| {
                Ok(DVec3::new(
                    self.f64(field)?,
                    self.f64(field)?,
                    self.f64(field)?,
                ))
            })
            .collect()
    }

    pub(crate) fn bytes(&mut self, field: &str) -> Result<&'a [u8]> {
        let n = self.len(field, 1)?;
        self.take(n, field)
    }

    pub(crate) fn json<T: serde::de::DeserializeOwned>(&mut self, field: &str) -> Result<T> {
        let text = self.bytes(field)?;
        serde_json::from_slice(text).map_err(|e| self.error(format!("{field}: {e}")))
    }

    /// The drag spring [`Writer::drag`] wrote, checked against a model of `masses` masses.
    pub(crate) fn drag(&mut self, masses: usize) -> Result<Option<DragSpring>> {
        if !self.bool("drag spring")? {
            return Ok(None);
        }
        let d = DragSpring {
            mass: self.u64("drag spring")? as usize,
            target: self.vec3s("drag spring", Some(1))?[0],
            stiffness: self.f64("drag spring")?,
            damping: self.f64("drag spring")?,
        };
        d.validate(masses)
            .map_err(|e| self.error(format!("drag spring: {e}")))?;
        Ok(Some(d))
    }

    /// Checks that the whole payload was read.
    pub(crate) fn finish(&self) -> Result<()> {
        let left = self.bytes.len() - self.at;
        if left == 0 {
            Ok(())
        } else {
            Err(self.error(format!("{left} bytes are left after the last field")))
        }
    }
}

/// What both backends keep alike in a snapshot: the actuators in force, the commands, the drag
/// spring, the energy books (dissipated and injected, J) and the blow-up bounds (in force, and
/// what a reset returns to).
#[derive(Debug)]
pub(crate) struct Common {
    pub(crate) actuators: Vec<Actuator>,
    pub(crate) commands: Vec<f64>,
    pub(crate) drag: Option<DragSpring>,
    pub(crate) energy: [f64; 2],
    pub(crate) limits: [SpeedLimit; 2],
}

impl Writer {
    /// [`Common`]'s fields.
    pub(crate) fn common(&mut self, c: &Common) {
        self.json(&c.actuators);
        self.f64s(&c.commands);
        self.drag(c.drag);
        self.f64s(&c.energy);
        for limit in c.limits {
            self.f64s(&limit.to_array());
        }
    }
}

impl Reader<'_> {
    /// [`Common`]'s fields, checked against a model of `actuators` actuators (`commands` of
    /// them commanded) and `masses` masses.
    pub(crate) fn common(
        &mut self,
        actuators: usize,
        commands: usize,
        masses: usize,
    ) -> Result<Common> {
        let list: Vec<Actuator> = self.json("actuators")?;
        if list.len() != actuators {
            return Err(self.error(format!(
                "it has {} actuators; this world's model has {actuators}",
                list.len()
            )));
        }
        let commands = self.f64s("commands", Some(commands))?;
        let drag = self.drag(masses)?;
        let energy = self.f64s("energy books", Some(2))?;
        let mut limit = |field| -> Result<SpeedLimit> {
            let a = self.f64s(field, Some(5))?;
            Ok(SpeedLimit::from_array(a.try_into().expect("5 numbers")))
        };
        let limits = [limit("blow-up bound")?, limit("initial blow-up bound")?];
        Ok(Common {
            actuators: list,
            commands,
            drag,
            energy: [energy[0], energy[1]],
            limits,
        })
    }
}
