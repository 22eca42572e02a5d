import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tests.support is imported from the repository root
    sys.path.insert(0, str(ROOT))
