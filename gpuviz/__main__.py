import sys

from gpuviz.cli import main

sys.exit(main())
