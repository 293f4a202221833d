from factmemory_tools.recall.run import main

main()
