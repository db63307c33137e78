"""A swizzle preset's form shows no custom B, M, S fields: they are not what the model uses
(they stayed editable with stale values: Swizzle⟨1,4,3⟩ drawn, "bits 3" in its field)."""

from __future__ import annotations

from dataclasses import replace

from gpuviz.models.swizzle import SwizzleParams, SwizzleSpec
from gpuviz.ui.param_form import ParamForm

CUSTOM = {"bits", "base", "shift"}


def test_a_preset_mode_hides_the_custom_fields_and_custom_shows_them(qtbot):
    form = ParamForm("swizzle", SwizzleParams)
    qtbot.addWidget(form)
    for mode in ("128B", "64B", "32B", "none"):
        form.set_params(SwizzleParams(swizzle=SwizzleSpec(mode=mode)))
        assert not CUSTOM & set(form.shown_fields("swizzle")), mode
    form.set_params(replace(SwizzleParams(), swizzle=SwizzleSpec(mode="custom")))
    assert set(form.shown_fields("swizzle")) >= CUSTOM
