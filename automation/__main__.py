from automation.cli import run

raise SystemExit(run())
