def pytest_configure(config):
    config.addinivalue_line("markers", "app: starts the Articulate application (needs a display)")
