from factmemory_tools.dedup.run import main

main()
