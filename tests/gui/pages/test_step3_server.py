"""Step 3 (服务器配置) driven like a person: choices land in the plan, the gauges and findings follow."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QTranslator
from PySide6.QtWidgets import QComboBox

from catalog.models import Chassis, Cpu, MemoryModule, Nic, Psu, Storage
from gui.controller import PlanController
from gui.pages.step3_server import ServerPage


@pytest.fixture
def page(qtbot, catalog, policy):
    ctl = PlanController(catalog, policy, lang="en")
    page = ServerPage(ctl)
    qtbot.addWidget(page)
    return page


def choose(combo: QComboBox, part_id: str | None) -> None:
    """Pick an item the way a person does: by activating it in the list (data = catalog id)."""
    idx = combo.findData(part_id)
    assert idx >= 0, f"{part_id} not offered"
    combo.setCurrentIndex(idx)


def test_choices_are_written_to_the_plan_with_key_specs_in_the_items(page, catalog):
    ctl = page.controller
    cpu = sorted(catalog.all(Cpu), key=lambda c: c.cores)[-1]
    choose(page.cpu_combo, cpu.id)
    assert ctl.plan.server.cpu == cpu.id
    text = page.cpu_combo.currentText()
    assert cpu.name in text and f"{cpu.cores} cores" in text
    page.cpu_count.setValue(2)
    assert ctl.plan.server.cpu_count == 2

    # a module the CPU takes: the list offers only those (procurement.compatibility)
    mem = next(m for m in catalog.all(MemoryModule) if m.ecc and m.memory_type in cpu.memory_type)
    choose(page.memory_combo, mem.id)
    page.memory_count.setValue(16)
    assert ctl.plan.server.memory is not None
    assert (ctl.plan.server.memory.part, ctl.plan.server.memory.count) == (mem.id, 16)
    # 16 modules × capacity, and the ECC the module has
    assert page.memory_total.text() == f"{16 * mem.capacity_gib} GiB, ECC"
    assert "ECC" in page.memory_combo.currentText()

    chassis = catalog.all(Chassis)[0]
    choose(page.chassis_combo, chassis.id)
    psu = next(p for p in catalog.all(Psu) if chassis.psu_form in (None, p.form))
    choose(page.psu_combo, psu.id)
    page.psu_count.setValue(2)
    page.redundancy_combo.setCurrentIndex(page.redundancy_combo.findData("n+1"))
    page.voltage_combo.setCurrentIndex(page.voltage_combo.findData("100-127"))
    page.rack_limit.setValue(12.5)
    srv = ctl.plan.server
    assert (srv.chassis, srv.psu.part, srv.psu.count, srv.psu.redundancy.value, srv.input_voltage,
            srv.rack_power_limit_kw) == (chassis.id, psu.id, 2, "n+1", "100-127", 12.5)
    page.rack_limit.setValue(0)  # the special value: no limit
    assert ctl.plan.server.rack_power_limit_kw is None


def test_storage_and_nic_rows_add_edit_remove(page, qtbot, catalog):
    ctl = page.controller
    qtbot.mouseClick(page.storage_rows.add_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(page.storage_rows.add_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(page.storage_rows.add_button, Qt.MouseButton.LeftButton)
    # three rows, one per tier, in the order system, data, backup
    assert [s.role.value for s in ctl.plan.server.storage] == ["system", "data", "backup"]
    assert len(page.storage_rows.rows) == 3
    hdd = next(s for s in catalog.all(Storage) if s.storage_kind.value == "hdd")
    _role, combo, count, _remove = page.storage_rows.rows[2]
    choose(combo, hdd.id)
    count.setValue(4)
    assert (ctl.plan.server.storage[2].part, ctl.plan.server.storage[2].count) == (hdd.id, 4)
    # remove the middle row: the backup row moves up and keeps its part
    qtbot.mouseClick(page.storage_rows.rows[1][3], Qt.MouseButton.LeftButton)
    assert [(s.role.value, s.part) for s in ctl.plan.server.storage][1] == ("backup", hdd.id)
    assert len(page.storage_rows.rows) == 2
    assert page.storage_rows.rows[1][1].currentData() == hdd.id

    qtbot.mouseClick(page.nic_rows.add_button, Qt.MouseButton.LeftButton)
    nic = sorted(catalog.all(Nic), key=lambda n: n.speed_gbps)[-1]
    choose(page.nic_rows.rows[0][1], nic.id)
    page.nic_rows.rows[0][2].setValue(2)
    assert [(n.part, n.count) for n in ctl.plan.server.nics] == [(nic.id, 2)]
    assert f"{nic.speed_gbps:g} Gb/s" in page.nic_rows.rows[0][1].currentText()


def test_typing_a_count_is_one_undo_step_and_undo_updates_the_widgets(page):
    ctl = page.controller
    for v in (2, 3, 4):
        page.psu_count.setValue(v)
    assert ctl.plan.server.psu.count == 4
    ctl.undo_stack.undo()
    assert ctl.plan.server.psu.count == 0
    assert page.psu_count.value() == 0


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")  # the offscreen platform, on show()
def test_focus_field_finds_row_widgets(page, qtbot):
    qtbot.mouseClick(page.storage_rows.add_button, Qt.MouseButton.LeftButton)
    page.show()
    qtbot.waitExposed(page)
    assert page.focus_field("server.storage[0].count")
    qtbot.waitUntil(lambda: page.storage_rows.rows[0][2].hasFocus())
    assert page.focus_field("server.psu.count")
    assert not page.focus_field("software.os")


class _Marking(QTranslator):
    """A stand-in translation: every string becomes «source», so a re-translated label is easy to see."""

    def translate(self, context, source, disambiguation=None, n=-1):
        return f"«{source}»"

    def isEmpty(self) -> bool:
        return False


def test_switching_language_retranslates_the_visible_labels(page, qtbot):
    assert page.auto_button.text() == "Auto-configure"
    translator = _Marking()
    QCoreApplication.installTranslator(translator)
    try:
        qtbot.waitUntil(lambda: page.auto_button.text() == "«Auto-configure»")
        assert page.power_box.title() == "«Chassis and power»"
        assert page.voltage_combo.itemText(page.voltage_combo.findData("100-127")) == "«Low line, 100-127 V»"
        assert page.storage_rows.add_button.text() == "«Add storage»"
    finally:
        QCoreApplication.removeTranslator(translator)
    qtbot.waitUntil(lambda: page.auto_button.text() == "Auto-configure")


def test_every_form_field_has_a_visible_label_that_is_its_buddy(page):
    for form, fields in ((page.cpu_form, [page.cpu_combo, page.cpu_count]),
                         (page.power_form, [page.chassis_combo, page.psu_combo, page.psu_count])):
        for field in fields:
            label = form.labelForField(field)
            assert label is not None and label.text().endswith(":") and label.buddy() is field
    assert page.power_form.labelForField(page.psu_combo).text() == "PSU model:"


def test_the_auto_configure_summary_says_when_the_server_was_changed_since(page, qtbot):
    """The summary kept describing the auto-configured server after manual edits; it must say it is out
    of date while the server differs, and be current again when Undo brings that server back."""
    ctl = page.controller
    ctl.set_value("gpu.model", "h100-sxm5-80gb")
    ctl.set_value("gpu.count", 8)
    page.refresh_now()
    qtbot.mouseClick(page.auto_button, Qt.MouseButton.LeftButton)
    summary = page.auto_label.text()
    assert summary and "Changed since" not in summary
    page.psu_count.setFocus()
    page.psu_count.selectAll()
    qtbot.keyClicks(page.psu_count, str(ctl.plan.server.psu.count + 1))
    page.refresh_now()
    assert page.auto_label.text().startswith("Changed since auto-configure")
    assert summary in page.auto_label.text()  # what it had proposed is still readable
    ctl.undo_stack.undo()
    page.refresh_now()
    assert page.auto_label.text() == summary
