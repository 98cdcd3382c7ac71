import sys
from pathlib import Path

# The engine tests' toy puzzle lives beside the tests.
sys.path.insert(0, str(Path(__file__).parent))
