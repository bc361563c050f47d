"""What is known about the models a buyer sizes for — shapes from config.json and the presets — below the plan.

The plan file names a preset (``requirements.model_preset``) and refuses one this version does not know, so
the presets sit below the plan; the memory model (procurement.sizing) sizes from them.
"""
