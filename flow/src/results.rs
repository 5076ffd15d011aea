//! The rows of a sweep's results file (`results.csv`): the grid's axes that name its columns,
//! one measured point per row, and the CSV reading and writing (RFC 4180 quoting).

/// The results file in the output directory.
pub const CSV_NAME: &str = "results.csv";

/// One `--vary`: a full key (`block.key` or `synth.key`) and its values, as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub key: String,
    pub values: Vec<String>,
}

/// A measured point: one CSV row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Row {
    pub block: String,
    /// One value per axis, as written in `--vary`.
    pub values: Vec<String>,
    /// `ok`, `does-not-fit` or `error`.
    pub status: String,
    pub lut4: Option<u64>,
    pub ff: Option<u64>,
    pub carry: Option<u64>,
    pub bram: Option<u64>,
    pub logic_cells: Option<u64>,
    pub fmax_mhz: Option<f64>,
    pub fmax_min_mhz: Option<f64>,
    pub fmax_max_mhz: Option<f64>,
    pub clock_mhz: f64,
    pub target: String,
    pub critical_path: String,
    pub critical_ns: Option<f64>,
    pub sim_cycles_per_s: Option<f64>,
    pub seconds: f64,
    pub note: String,
    /// Hash of the generated Verilog, the target and the clock: the point's identity.
    pub hash: String,
}

/// The CSV header for these axes.
pub fn header(axes: &[Axis]) -> Vec<String> {
    let mut h = vec!["block".to_string()];
    h.extend(axes.iter().map(|a| a.key.clone()));
    for c in [
        "status", "lut4", "ff", "carry", "bram", "logic_cells", "fmax_mhz", "fmax_min_mhz", "fmax_max_mhz", "clock_mhz",
        "target", "critical_path",
        "critical_ns", "sim_cycles_per_s", "seconds", "note", "hash",
    ] {
        h.push(c.to_string());
    }
    h
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map_or(String::new(), |x| x.to_string())
}

impl Row {
    pub(crate) fn fields(&self) -> Vec<String> {
        let mut f = vec![self.block.clone()];
        f.extend(self.values.iter().cloned());
        f.extend([
            self.status.clone(),
            opt(&self.lut4),
            opt(&self.ff),
            opt(&self.carry),
            opt(&self.bram),
            opt(&self.logic_cells),
            self.fmax_mhz.map_or(String::new(), |v| format!("{v:.2}")),
            self.fmax_min_mhz.map_or(String::new(), |v| format!("{v:.2}")),
            self.fmax_max_mhz.map_or(String::new(), |v| format!("{v:.2}")),
            flow_mhz(self.clock_mhz),
            self.target.clone(),
            self.critical_path.clone(),
            self.critical_ns.map_or(String::new(), |v| format!("{v:.2}")),
            self.sim_cycles_per_s.map_or(String::new(), |v| format!("{v:.0}")),
            format!("{:.1}", self.seconds),
            self.note.clone(),
            self.hash.clone(),
        ]);
        f
    }

    pub(crate) fn from_fields(f: &[String], axes: usize) -> Option<Row> {
        if f.len() != axes + 18 {
            return None;
        }
        let num = |i: usize| -> Option<u64> { f[i].parse().ok() };
        let real = |i: usize| -> Option<f64> { f[i].parse().ok() };
        let b = axes + 1;
        Some(Row {
            block: f[0].clone(),
            values: f[1..b].to_vec(),
            status: f[b].clone(),
            lut4: num(b + 1),
            ff: num(b + 2),
            carry: num(b + 3),
            bram: num(b + 4),
            logic_cells: num(b + 5),
            fmax_mhz: real(b + 6),
            fmax_min_mhz: real(b + 7),
            fmax_max_mhz: real(b + 8),
            clock_mhz: real(b + 9).unwrap_or(0.0),
            target: f[b + 10].clone(),
            critical_path: f[b + 11].clone(),
            critical_ns: real(b + 12),
            sim_cycles_per_s: real(b + 13),
            seconds: real(b + 14).unwrap_or(0.0),
            note: f[b + 15].clone(),
            hash: f[b + 16].clone(),
        })
    }

    /// Whether the point needs no re-run.
    pub fn finished(&self) -> bool {
        self.status == "ok" || self.status == "does-not-fit"
    }
}

fn flow_mhz(v: f64) -> String {
    crate::fpga::mhz_text(v)
}

/// One CSV line (RFC 4180 quoting where needed), with its newline.
pub fn csv_line(fields: &[String]) -> String {
    let quoted: Vec<String> = fields
        .iter()
        .map(|f| {
            if f.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", f.replace('"', "\"\""))
            } else {
                f.clone()
            }
        })
        .collect();
    quoted.join(",") + "\n"
}

/// Parses CSV text into records (quoted fields may hold commas, quotes and newlines).
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    parse_csv_lines(text).into_iter().map(|(_, r)| r).collect()
}

/// [`parse_csv`] with the line (from 1) each record starts on.
pub fn parse_csv_lines(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut records = Vec::new();
    let (mut line, mut start) = (1, 1);
    let (mut record, mut field) = (Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    let mut any = false;
    while let Some(c) = chars.next() {
        any = true;
        if c == '\n' {
            line += 1;
        }
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                _ => field.push(c),
            }
        } else {
            match c {
                '"' => quoted = true,
                ',' => record.push(std::mem::take(&mut field)),
                '\r' => {}
                '\n' => {
                    record.push(std::mem::take(&mut field));
                    records.push((start, std::mem::take(&mut record)));
                    any = false;
                    start = line;
                }
                _ => field.push(c),
            }
        }
    }
    if any {
        record.push(field);
        records.push((start, record));
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_round_trip_with_quoting() {
        let axes = vec![Axis { key: "scoreboard.max_count".into(), values: vec![] }];
        let row = Row {
            block: "scoreboard".into(),
            values: vec!["[1,2]".into()],
            status: "does-not-fit".into(),
            lut4: Some(9805),
            ff: Some(1281),
            carry: Some(1536),
            bram: Some(0),
            logic_cells: Some(12715),
            fmax_mhz: None,
            fmax_min_mhz: Some(97.5),
            fmax_max_mhz: None,
            clock_mhz: 62.5,
            target: "ice40-hx8k".into(),
            critical_path: String::new(),
            critical_ns: None,
            sim_cycles_per_s: None,
            seconds: 70.0,
            note: "does not fit ice40-hx8k: needs ICESTORM_LC 12715 of 7680, \"say\"".into(),
            hash: "00ff".into(),
        };
        let text = csv_line(&header(&axes)) + &csv_line(&row.fields());
        let records = parse_csv(&text);
        assert_eq!(records.len(), 2);
        assert_eq!(records[0], header(&axes));
        assert_eq!(Row::from_fields(&records[1], 1), Some(row));
        assert_eq!(parse_csv("a,\"b\nc\",d\n"), vec![vec!["a".to_string(), "b\nc".into(), "d".into()]]);
    }
}
