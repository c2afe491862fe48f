# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
"""The parts of scripts/hostile-ftp.py."""
