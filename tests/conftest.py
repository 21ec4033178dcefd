pytest_plugins = ["tests.harness.plugin"]
