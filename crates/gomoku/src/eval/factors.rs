//! A factor on one role's values for one shape group (`mover:open-three=0.93`), or for the
//! part of it whose second strongest line is a given shape (`mover:open-three+open-two=1.05`,
//! which multiplies on top of the whole group's factor if both are given): the step that
//! tunes a fit's balance by matches. `wuzi tune --shape-factor` writes it into a weights file;
//! a `wuzi match` or `wuzi spsa` side applies it to the tables it plays with, so a tuner can try
//! factors without writing files.

use super::weights::{Weights, MOVER, SCALABLE_SHAPES, WAITER};
use crate::pattern::Shape;
use std::fmt;
use std::str::FromStr;

/// One role's table (`MOVER` or `WAITER`), a shape group and its factor.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ShapeFactor {
    pub role: usize,
    /// The codes' strongest line shape.
    pub shape: Shape,
    /// Their second strongest, if the group is narrowed to one (at most `shape`).
    pub second: Option<Shape>,
    pub factor: f64,
}

impl ShapeFactor {
    /// The group this factor scales, as its text names it: `waiter:open-three`,
    /// `mover:three+open-two`.
    pub fn group(&self) -> String {
        let role = if self.role == MOVER {
            "mover"
        } else {
            "waiter"
        };
        match self.second {
            Some(second) => format!("{role}:{}+{second}", self.shape),
            None => format!("{role}:{}", self.shape),
        }
    }

    /// Whether `other` scales the same role and group (so one replaces the other).
    pub fn same_group(&self, other: &ShapeFactor) -> bool {
        (self.role, self.shape, self.second) == (other.role, other.shape, other.second)
    }

    /// Scales `weights` by each factor in turn (see [`Weights::scale_shape`]).
    pub fn apply_all(factors: &[ShapeFactor], weights: &mut Weights) {
        for f in factors {
            weights.scale_shape(f.role, f.shape, f.second, f.factor);
        }
    }
}

impl fmt::Display for ShapeFactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.group(), self.factor)
    }
}

impl FromStr for ShapeFactor {
    type Err = String;

    /// `ROLE:SHAPE=FACTOR` or `ROLE:SHAPE+SECOND=FACTOR`: ROLE mover or waiter, SHAPE one of
    /// [`SCALABLE_SHAPES`], SECOND none or one of them no stronger than SHAPE, FACTOR a
    /// positive number.
    fn from_str(text: &str) -> Result<ShapeFactor, String> {
        let usage = || {
            format!(
                "\"{text}\" is not ROLE:SHAPE=FACTOR or ROLE:SHAPE+SECOND=FACTOR, e.g. \
                 waiter:open-three=0.94"
            )
        };
        let (group, factor) = text.split_once('=').ok_or_else(usage)?;
        let (role, shapes) = group.trim().split_once(':').ok_or_else(usage)?;
        let role = match role {
            "mover" => MOVER,
            "waiter" => WAITER,
            _ => return Err(format!("{}: the role is mover or waiter", usage())),
        };
        let scalable = |name: &str| {
            Shape::from_name(name)
                .filter(|s| SCALABLE_SHAPES.contains(s))
                .ok_or_else(|| {
                    let names: Vec<&str> = Shape::ALL
                        .iter()
                        .filter(|s| SCALABLE_SHAPES.contains(s))
                        .map(|s| s.name())
                        .collect();
                    format!("{}: the shape is one of {}", usage(), names.join(", "))
                })
        };
        let (shape, second) = match shapes.split_once('+') {
            Some((shape, second)) => {
                let shape = scalable(shape)?;
                let second = match second {
                    "none" => Shape::None,
                    name => scalable(name)?,
                };
                if second > shape {
                    return Err(format!(
                        "{}: the second shape is no stronger than the first",
                        usage()
                    ));
                }
                (shape, Some(second))
            }
            None => (scalable(shapes)?, None),
        };
        let factor = match factor.trim().parse::<f64>() {
            Ok(f) if f.is_finite() && f > 0.0 => f,
            _ => return Err(format!("{}: the factor is a positive number", usage())),
        };
        Ok(ShapeFactor {
            role,
            shape,
            second,
            factor,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_parse_print_and_refuse_bad_text() {
        let f: ShapeFactor = "waiter:open-three=0.94".parse().unwrap();
        assert_eq!(
            f,
            ShapeFactor {
                role: WAITER,
                shape: Shape::OpenThree,
                second: None,
                factor: 0.94
            }
        );
        assert_eq!(f.to_string(), "waiter:open-three=0.94");
        assert_eq!(f.group(), "waiter:open-three");
        let double: ShapeFactor = "mover:three+open-two=1.1".parse().unwrap();
        assert_eq!(
            (double.shape, double.second, double.factor),
            (Shape::Three, Some(Shape::OpenTwo), 1.1)
        );
        assert_eq!(double.to_string(), "mover:three+open-two=1.1");
        let alone: ShapeFactor = "mover:four+none=0.9".parse().unwrap();
        assert_eq!(alone.second, Some(Shape::None));
        for bad in [
            "waiter:open-three",
            "open-three=0.9",
            "black:two=0.9",
            "mover:five=0.9",
            "mover:overline=0.9",
            "mover:two=0",
            "mover:two=-1",
            "mover:two=nan",
            "mover:two=x",
            "mover:two+three=1.1",
            "mover:two+five=1.1",
            "mover:two+=1.1",
        ] {
            assert!(bad.parse::<ShapeFactor>().is_err(), "{bad}");
        }
    }
}
