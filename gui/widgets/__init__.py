"""Small reusable widgets: the field marker, the VRAM bar chart, the yuan/万元 budget box."""
