//! A factor on one role's values for one shape group (`mover:open-three=0.93`): the step that
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
    pub shape: Shape,
    pub factor: f64,
}

impl ShapeFactor {
    /// The group this factor scales, as its text names it: `waiter:open-three`.
    pub fn group(&self) -> String {
        let role = if self.role == MOVER {
            "mover"
        } else {
            "waiter"
        };
        format!("{role}:{}", self.shape)
    }

    /// Scales `weights` by each factor in turn (see [`Weights::scale_shape`]).
    pub fn apply_all(factors: &[ShapeFactor], weights: &mut Weights) {
        for f in factors {
            weights.scale_shape(f.role, f.shape, f.factor);
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

    /// `ROLE:SHAPE=FACTOR`: ROLE mover or waiter, SHAPE one of [`SCALABLE_SHAPES`], FACTOR a
    /// positive number.
    fn from_str(text: &str) -> Result<ShapeFactor, String> {
        let usage = || format!("\"{text}\" is not ROLE:SHAPE=FACTOR, e.g. waiter:open-three=0.94");
        let (group, factor) = text.split_once('=').ok_or_else(usage)?;
        let (role, shape) = group.trim().split_once(':').ok_or_else(usage)?;
        let role = match role {
            "mover" => MOVER,
            "waiter" => WAITER,
            _ => return Err(format!("{}: the role is mover or waiter", usage())),
        };
        let shape = Shape::from_name(shape)
            .filter(|s| SCALABLE_SHAPES.contains(s))
            .ok_or_else(|| {
                let names: Vec<&str> = Shape::ALL
                    .iter()
                    .filter(|s| SCALABLE_SHAPES.contains(s))
                    .map(|s| s.name())
                    .collect();
                format!("{}: the shape is one of {}", usage(), names.join(", "))
            })?;
        let factor = match factor.trim().parse::<f64>() {
            Ok(f) if f.is_finite() && f > 0.0 => f,
            _ => return Err(format!("{}: the factor is a positive number", usage())),
        };
        Ok(ShapeFactor {
            role,
            shape,
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
                factor: 0.94
            }
        );
        assert_eq!(f.to_string(), "waiter:open-three=0.94");
        assert_eq!(f.group(), "waiter:open-three");
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
        ] {
            assert!(bad.parse::<ShapeFactor>().is_err(), "{bad}");
        }
    }
}
