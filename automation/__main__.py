from automation.cli import console

console()
