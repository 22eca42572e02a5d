from automation.cli import main

raise SystemExit(main())
