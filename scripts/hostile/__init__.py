"""The parts of scripts/hostile-ftp.py."""
