//! What a field's Rust type is, as far as the rules need to know, read from
//! the syntax (the trait bounds in generated code catch what syntax cannot).

use syn::{GenericArgument, PathArguments, Type};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    String,
    Integer,
    Float,
    Bool,
    /// `ConfinedPath`.
    Path,
    List(Box<Kind>),
    /// `BTreeMap<String, V>` or `HashMap<String, V>`: the kind of `V`.
    Map(Box<Kind>),
    Option(Box<Kind>),
    /// `PathBuf` or `Path`: refused by rule C13.
    FsPath,
    /// A nested struct, an enum, or a type the syntax does not tell.
    Other,
}

impl Kind {
    /// The kind under any `Option`.
    pub fn inner(&self) -> &Kind {
        match self {
            Kind::Option(k) => k.inner(),
            k => k,
        }
    }

    /// The kind under every `Option`, list and map: what a
    /// `Vec<Option<String>>` holds in the end.
    pub fn leaf(&self) -> &Kind {
        match self {
            Kind::Option(k) | Kind::List(k) | Kind::Map(k) => k.leaf(),
            k => k,
        }
    }

    pub fn is_stringy(&self) -> bool {
        matches!(self.inner(), Kind::String | Kind::Path)
    }

    pub fn is_number(&self) -> bool {
        matches!(self.inner(), Kind::Integer | Kind::Float)
    }

    pub fn is_list(&self) -> bool {
        matches!(self.inner(), Kind::List(_))
    }

    pub fn is_map(&self) -> bool {
        matches!(self.inner(), Kind::Map(_))
    }

    /// A list's items, or a map's values: what `each(...)` constrains.
    pub fn item(&self) -> Option<&Kind> {
        match self.inner() {
            Kind::List(k) | Kind::Map(k) => Some(k),
            _ => None,
        }
    }

    pub fn describe(&self) -> &'static str {
        match self.inner() {
            Kind::String => "a string",
            Kind::Integer => "an integer",
            Kind::Float => "a float",
            Kind::Bool => "a bool",
            Kind::Path => "a confined path",
            Kind::List(_) => "a list",
            Kind::Map(_) => "a map",
            Kind::FsPath => "a file-system path",
            Kind::Option(_) | Kind::Other => "this type",
        }
    }
}

pub fn classify(ty: &Type) -> Kind {
    match ty {
        Type::Reference(r) => classify(&r.elem),
        Type::Group(g) => classify(&g.elem),
        Type::Paren(p) => classify(&p.elem),
        Type::Path(p) => {
            let Some(seg) = p.path.segments.last() else {
                return Kind::Other;
            };
            let arg = || match &seg.arguments {
                PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                    GenericArgument::Type(t) => Some(classify(t)),
                    _ => None,
                }),
                _ => None,
            };
            match seg.ident.to_string().as_str() {
                "String" | "str" => Kind::String,
                "ConfinedPath" => Kind::Path,
                "PathBuf" | "Path" | "OsString" | "OsStr" => Kind::FsPath,
                "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize" => {
                    Kind::Integer
                }
                "f32" | "f64" => Kind::Float,
                "bool" => Kind::Bool,
                "Vec" => Kind::List(Box::new(arg().unwrap_or(Kind::Other))),
                "BTreeMap" | "HashMap" => {
                    let value = match &seg.arguments {
                        PathArguments::AngleBracketed(a) => a
                            .args
                            .iter()
                            .filter_map(|g| match g {
                                GenericArgument::Type(t) => Some(classify(t)),
                                _ => None,
                            })
                            .nth(1),
                        _ => None,
                    };
                    Kind::Map(Box::new(value.unwrap_or(Kind::Other)))
                }
                "Option" => Kind::Option(Box::new(arg().unwrap_or(Kind::Other))),
                _ => Kind::Other,
            }
        }
        _ => Kind::Other,
    }
}

/// Whether a file-system path type (`PathBuf`, `Path`, `OsString`,
/// `OsStr`: `Kind::FsPath`) appears anywhere in `ty`, at any depth: in a
/// generic argument (`Vec<Option<PathBuf>>`, `Box<Path>`, a map's value),
/// behind a reference, in an array, a slice or a tuple. Rule C13 refuses
/// it once, at the type.
pub fn contains_fs_path(ty: &Type) -> bool {
    match ty {
        Type::Reference(r) => contains_fs_path(&r.elem),
        Type::Group(g) => contains_fs_path(&g.elem),
        Type::Paren(p) => contains_fs_path(&p.elem),
        Type::Array(a) => contains_fs_path(&a.elem),
        Type::Slice(s) => contains_fs_path(&s.elem),
        Type::Ptr(p) => contains_fs_path(&p.elem),
        Type::Tuple(t) => t.elems.iter().any(contains_fs_path),
        Type::Path(p) => {
            classify(ty) == Kind::FsPath
                || p.path.segments.iter().any(|seg| match &seg.arguments {
                    PathArguments::AngleBracketed(a) => a.args.iter().any(|g| match g {
                        GenericArgument::Type(t) => contains_fs_path(t),
                        _ => false,
                    }),
                    _ => false,
                })
        }
        _ => false,
    }
}

/// The type of a list's items or a map's values (under any `Option`), as
/// written: what `each(...)` constrains.
pub fn item_type(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    let PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    let mut types = a.args.iter().filter_map(|g| match g {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    match seg.ident.to_string().as_str() {
        "Option" => item_type(types.next()?),
        "Vec" => types.next(),
        "BTreeMap" | "HashMap" => types.nth(1),
        _ => None,
    }
}

/// The format a date or time type publishes (`docs/attributes.md`, "Dates and
/// times"), read from the last segment of its path, under `Option`, `Vec` and
/// references: "date" for `NaiveDate`, `civil::Date`, `time::Date`;
/// "date-time" for `DateTime<..>`, `Timestamp`, `OffsetDateTime`; "time" for
/// a time of day (`NaiveTime`, `civil::Time`, `time::Time`). Rule C12 counts
/// it as a declared format, so "YYYY-MM-DD" on a `NaiveDate` is not a
/// constraint stated only in prose: the type enforces it.
pub fn date_format(ty: &Type) -> Option<&'static str> {
    match leaf_name(ty)?.as_str() {
        "NaiveDate" | "Date" => Some("date"),
        "DateTime" | "Timestamp" | "OffsetDateTime" => Some("date-time"),
        "NaiveTime" | "Time" => Some("time"),
        _ => None,
    }
}

/// The values a Rust integer type holds (`u8`: 0 to 255), under any
/// `Option` or `Vec`, for rule C10's check that a range leaves a value.
pub fn integer_range(ty: &Type) -> Option<(f64, f64)> {
    Some(match leaf_name(ty)?.as_str() {
        "u8" => (0.0, u8::MAX as f64),
        "u16" => (0.0, u16::MAX as f64),
        "u32" => (0.0, u32::MAX as f64),
        "u64" | "usize" => (0.0, u64::MAX as f64),
        "i8" => (i8::MIN as f64, i8::MAX as f64),
        "i16" => (i16::MIN as f64, i16::MAX as f64),
        "i32" => (i32::MIN as f64, i32::MAX as f64),
        "i64" | "isize" => (i64::MIN as f64, i64::MAX as f64),
        _ => return None,
    })
}

/// The last segment's name of the type under any `Option` or `Vec`.
fn leaf_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Reference(r) => leaf_name(&r.elem),
        Type::Group(g) => leaf_name(&g.elem),
        Type::Paren(p) => leaf_name(&p.elem),
        Type::Path(p) => {
            let seg = p.path.segments.last()?;
            match seg.ident.to_string().as_str() {
                "Option" | "Vec" => match &seg.arguments {
                    PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                        GenericArgument::Type(t) => leaf_name(t),
                        _ => None,
                    }),
                    _ => None,
                },
                name => Some(name.to_string()),
            }
        }
        _ => None,
    }
}
