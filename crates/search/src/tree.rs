//! The searched tree, recorded by an [`Observer`] for Learn mode: every node in visiting
//! order, with its window, value, cut-off and the moves it skipped.

use crate::game::{Game, Player};
use crate::observer::Observer;
use crate::score::Score;

/// One visited node. Nodes are numbered in visiting order; the root is node 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode<M> {
    /// The move that led here (`None` at the root).
    pub mv: Option<M>,
    pub parent: Option<usize>,
    pub ply: u32,
    /// Plies left to search below this node.
    pub depth: u32,
    pub to_move: Player,
    /// The window the node was searched with.
    pub alpha: Score,
    pub beta: Score,
    /// The value the search returned for it (a bound when it fell outside the window).
    pub value: Score,
    /// Alpha >= beta stopped its loop.
    pub cutoff: bool,
    /// Moves the cut-off left unsearched.
    pub skipped: Vec<M>,
    /// Children in visiting order.
    pub children: Vec<usize>,
    /// A second search of the same move with a wider window (PVS), which replaces the first.
    pub re_search: bool,
}

/// Records the tree, refusing to grow past `max_nodes`: the search is then stopped and
/// [`TreeRecorder::overflowed`] says so, so a tree is never silently cut.
#[derive(Clone, Debug)]
pub struct TreeRecorder<M> {
    pub nodes: Vec<TreeNode<M>>,
    max_nodes: usize,
    /// The nodes entered and not yet left, innermost last.
    open: Vec<usize>,
    overflowed: bool,
}

impl<M: Copy + Eq> TreeRecorder<M> {
    pub fn new(max_nodes: usize) -> Self {
        TreeRecorder {
            nodes: Vec::new(),
            max_nodes,
            open: Vec::new(),
            overflowed: false,
        }
    }

    /// True when the search wanted more than `max_nodes` nodes (it was stopped).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The children whose values count for their parent: a re-searched move's last search.
    pub fn searched_children(&self, node: usize) -> Vec<usize> {
        let children = &self.nodes[node].children;
        children
            .iter()
            .enumerate()
            .filter(|&(i, _)| {
                children
                    .get(i + 1)
                    .is_none_or(|&next| !self.nodes[next].re_search)
            })
            .map(|(_, &child)| child)
            .collect()
    }

    /// The principal variation: from the root, the child whose value gave its parent's.
    pub fn principal_variation(&self, negamax: bool) -> Vec<usize> {
        let mut line = Vec::new();
        let mut node = 0;
        while node < self.nodes.len() {
            let value = self.nodes[node].value;
            let next = self.searched_children(node).into_iter().find(|&c| {
                let v = self.nodes[c].value;
                if negamax {
                    -v == value
                } else {
                    v == value
                }
            });
            match next {
                Some(child) => {
                    line.push(child);
                    node = child;
                }
                None => break,
            }
        }
        line
    }

    /// Checks that the tree is what its search claims: `nodes` nodes; every node's value is the
    /// max (first player to move) or min of its searched children's values, or with `negamax`
    /// the max of their negated values; a node cut off exactly when it had children and
    /// max(alpha, value) >= beta, and only a cut-off node skipped moves. For tests and for
    /// anyone who doubts a tree.
    pub fn check(&self, negamax: bool, nodes: u64) -> Result<(), String> {
        if self.nodes.len() as u64 != nodes {
            return Err(format!(
                "{} nodes recorded, {nodes} counted",
                self.nodes.len()
            ));
        }
        for (id, node) in self.nodes.iter().enumerate() {
            let children = self.searched_children(id);
            let values = children.iter().map(|&c| self.nodes[c].value);
            let expected = if negamax {
                values.map(|v| -v).max()
            } else if node.to_move == Player::First {
                values.max()
            } else {
                values.min()
            };
            if let Some(expected) = expected {
                if expected != node.value {
                    return Err(format!(
                        "node {id}: value {:?}, its children give {expected:?}",
                        node.value
                    ));
                }
            }
            let cut = !children.is_empty() && node.alpha.max(node.value) >= node.beta;
            if node.cutoff != cut {
                return Err(format!(
                    "node {id}: cut-off {} where alpha >= beta is {cut}",
                    node.cutoff
                ));
            }
            if !node.cutoff && !node.skipped.is_empty() {
                return Err(format!("node {id} skipped moves without a cut-off"));
            }
        }
        Ok(())
    }
}

impl<G: Game> Observer<G> for TreeRecorder<G::Move> {
    fn enter(
        &mut self,
        game: &G,
        mv: Option<G::Move>,
        ply: u32,
        depth: u32,
        alpha: Score,
        beta: Score,
    ) -> bool {
        if self.nodes.len() >= self.max_nodes {
            self.overflowed = true;
            return false;
        }
        let id = self.nodes.len();
        let parent = self.open.last().copied();
        let re_search = parent.is_some_and(|p| {
            self.nodes[p]
                .children
                .last()
                .is_some_and(|&last| self.nodes[last].mv == mv)
        });
        if let Some(p) = parent {
            self.nodes[p].children.push(id);
        }
        self.nodes.push(TreeNode {
            mv,
            parent,
            ply,
            depth,
            to_move: game.side_to_move(),
            alpha,
            beta,
            value: Score::DRAW,
            cutoff: false,
            skipped: Vec::new(),
            children: Vec::new(),
            re_search,
        });
        self.open.push(id);
        true
    }

    fn leave(&mut self, value: Score, cutoff: bool, skipped: &[G::Move]) {
        if let Some(id) = self.open.pop() {
            let node = &mut self.nodes[id];
            node.value = value;
            node.cutoff = cutoff;
            node.skipped = skipped.to_vec();
        }
    }
}
