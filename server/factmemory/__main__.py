from factmemory.cli import main

raise SystemExit(main())
