# Bundled scenes (installed) and the test fixtures (distributed only).
modelsdir = $(pkgdatadir)/models
dist_models_DATA = models/default.xml
EXTRA_DIST += models/test
