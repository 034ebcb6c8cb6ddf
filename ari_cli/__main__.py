from ari_cli.cli import main

main()
