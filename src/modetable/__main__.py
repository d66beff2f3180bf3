from modetable.cli import main

raise SystemExit(main())
