"""Bad input from Python: each refused with an exception of hes.Error (the
status's subclass, with the library's message), none crashes."""
import pytest

import hes
