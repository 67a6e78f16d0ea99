# Bundled scenes (installed) and the test fixtures (distributed only).
modelsdir = $(pkgdatadir)/models
dist_models_DATA = models/mpl_hand.xml models/mpl_scene.xml
EXTRA_DIST += models/test
