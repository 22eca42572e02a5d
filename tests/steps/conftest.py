"""Makes tests.support importable however pytest is started (python -m pytest
puts the project folder on the path; a bare pytest does not)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
