# tinyquant/ is a package written against torch, with its own tests: they run in a child process
# after opyard.install_as_torch() (tests/compat/test_install_as_torch.py), never in this suite's process.
collect_ignore = ["tinyquant"]
