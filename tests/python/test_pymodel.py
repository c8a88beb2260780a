"""Models written in Python (hes.model)."""
import pytest

import hes
