-- Built-in A4 label sheets (customer_id null), from the gLabels template collection, plus our own 45-cell sheet
-- (no public 45-cell layout exists: 5 x 9 labels of 38 x 29 mm). Sellers copy one and adjust its offsets per printer.
INSERT INTO "label_sheets" ("customer_id", "code", "name", "cells", "columns", "rows", "label_width_mm", "label_height_mm", "margin_left_mm", "margin_top_mm", "pitch_x_mm", "pitch_y_mm") VALUES
  (NULL, 'wms-45', 'WMS 45 (5 × 9, 38 × 29 mm)', 45, 5, 9, 38, 29, 5, 9.5, 40, 31),
  (NULL, 'hisago-gb902', 'Hisago GB902 (60, 36 × 12 mm)', 60, 4, 15, 36, 12, 27, 24, 40, 16),
  (NULL, 'hisago-op3016', 'Hisago OP3016 (60, 26 × 26 mm)', 60, 6, 10, 26, 26, 27, 17, 26, 26),
  (NULL, 'rayfilm-4567', 'Rayfilm 4567 (88, 44 × 12.7 mm)', 88, 4, 22, 44, 12.7, 5, 8.8, 52, 12.7),
  (NULL, 'herma-4101', 'Herma 4101 (88, 43.2 × 10.3 mm)', 88, 4, 22, 43.2, 10.3, 18.6, 10.5, 43.2, 12.65),
  (NULL, 'a-one-28388', 'A-ONE 28388 (44, 48.3 × 25.4 mm)', 44, 4, 11, 48.3, 25.4, 8.4, 8.8, 48.3, 25.4),
  (NULL, 'avery-8651', 'Avery 8651 / Hisago ELM023 (65, 38.1 × 21.2 mm)', 65, 5, 13, 38.1, 21.2, 4.7, 10.9, 40.6, 21.2)
ON CONFLICT DO NOTHING;
