-- hand-written: built-in label rolls for thermal label printers (issue #37): one label per page, the page being the
-- label itself, as label printers feed them (Zebra-compatible 203 dpi printers take the same sizes as ZPL).
INSERT INTO "label_sheets" ("customer_id", "code", "name", "cells", "columns", "rows", "page_width_mm", "page_height_mm", "label_width_mm", "label_height_mm", "margin_left_mm", "margin_top_mm", "pitch_x_mm", "pitch_y_mm") VALUES
  (NULL, 'thermal-50x30', 'Thermal roll 50 × 30 mm', 1, 1, 1, 50, 30, 50, 30, 0, 0, 50, 30),
  (NULL, 'thermal-60x40', 'Thermal roll 60 × 40 mm', 1, 1, 1, 60, 40, 60, 40, 0, 0, 60, 40),
  (NULL, 'thermal-100x150', 'Thermal roll 100 × 150 mm (4 × 6 in)', 1, 1, 1, 100, 150, 100, 150, 0, 0, 100, 150)
ON CONFLICT DO NOTHING;
