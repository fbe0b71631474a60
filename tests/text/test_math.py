"""Inline TeX math as Unicode, through `render_math` and as part of display text."""

from __future__ import annotations

import pytest

from paperterm.index.text.display import display_text
from paperterm.index.text.math import render_math


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (r"\(\alpha + \beta\) and \[\Omega\]", "α + β and Ω"),
        (r"$\mathbb{R}^n$, $\mathcal{L}$, $\mathbf{W}$", "ℝⁿ, ℒ, 𝐖"),
        (r"$\frac{1}{2}$ and $\frac{a+b}{n}$ and $\sqrt{x+1}$", "1/2 and (a+b)/n and √(x+1)"),
        (r"$x^{-1}$, $R^2$, $x^\top$, $x^{*}$, $10^{5}$", "x⁻¹, R², xᵀ, x*, 10⁵"),
        (r"$a_{i,j}$ and $e^{i\pi}$ and $x_q$", "a_(i,j) and e^(iπ) and x_q"),
        (r"$a \cdot b \leq c \approx d \in S \to \infty$", "a · b ≤ c ≈ d ∈ S → ∞"),
        (r"$\hat{y}$, $\bar{x}$, $\{0,1\}^n$, $\left( x \right)$", "ŷ, x̄, {0,1}ⁿ, ( x )"),
        (r"$\beta$-VAE, top-$k$, $N$-grams, $<$ 5", "β-VAE, top-k, N-grams, < 5"),
        (r"$\text{H}\_2$O and $\textit{P}$s", "H₂O and Ps"),
        (r"$\mathbf{DUPLEX}$ stays a word", "DUPLEX stays a word"),
    ],
)
def test_math(raw: str, shown: str):
    assert display_text(raw) == shown


def test_render_math_directly():
    assert render_math(r"\sum_{i=1}^{n} x_i") == "∑ᵢ₌₁ⁿ xᵢ"
    assert render_math(r"\Gamma \Delta \epsilon \varphi") == "Γ Δ ε φ"


@pytest.mark.parametrize(
    ("tex", "shown"),
    [
        (r"\smash{x} + \boxed{y}", "x + y"),  # boxes show their content, not their name
        (r"x \label{eq:1} \phantom{y}", "x"),
        (r"\softmax(z)", "softmax(z)"),  # an unknown command is an operator's name
        (r"a \citep{k} b", "a [k] b"),  # citations as in text
    ],
)
def test_boxes_labels_and_unknown_commands(tex: str, shown: str):
    assert " ".join(render_math(tex).split()) == shown
